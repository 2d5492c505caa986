/* mshed-check-report.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * JSON, CSV and HTML reports of a folder check (see the header). Every report lists the same
 * rows: each diagnostic the baseline does not hold, a failure that no error diagnostic states
 * (check "failure") and each unreadable file (check "unreadable").
 */
#define G_LOG_DOMAIN "mshed-check-report"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#include "mshed-check-report.h"
#include "mshed-json.h"

/* JSON ----------------------------------------------------------------------------------- */

static const char *const kind_names[] = { "nres", "dfm", "utf" };

void
mshed_check_report_json_diagnostic (GString               *array,
                                    const char            *file,
                                    const MshedDiagnostic *d)
{
  MshedJsonWriter w;

  mshed_json_begin_element (&w, array);
  mshed_json_string (&w, "file", file);
  mshed_json_string (&w, "entry", d->entry);
  mshed_json_string (&w, "path", d->path);
  mshed_json_string (&w, "severity", mshed_severity_to_string (d->severity));
  mshed_json_string (&w, "check", mshed_check_to_string (d->check));
  mshed_json_int (&w, "check_code", d->check, TRUE);
  mshed_json_int (&w, "res_type", d->res_type, d->res_type != G_MAXUINT32);
  mshed_json_int (&w, "res_index", d->res_index, d->res_index >= 0);
  mshed_json_string (&w, "table", mshed_diagnostic_table_name (d));
  mshed_json_int (&w, "record", d->record, d->record >= 0);
  mshed_json_string (&w, "field", d->field);
  mshed_json_int (&w, "offset", (gint64) d->offset, TRUE);
  mshed_json_string (&w, "message", d->message);
  mshed_json_end (&w);
}

void
mshed_check_report_json_file (GString              *array,
                              const MshedFileCheck *c)
{
  MshedJsonWriter w;

  mshed_json_begin_element (&w, array);
  mshed_json_string (&w, "file", c->path);
  mshed_json_bool (&w, "readable", c->unreadable == NULL);
  if (c->unreadable)
    {
      mshed_json_string (&w, "failure", c->unreadable);
      mshed_json_end (&w);
      return;
    }
  mshed_json_string (&w, "kind", kind_names[c->kind]);
  mshed_json_int (&w, "models", c->n_models, TRUE);
  mshed_json_int (&w, "errors", c->n_errors, TRUE);
  mshed_json_int (&w, "warnings", c->n_warnings, TRUE);
  mshed_json_string (&w, "failure", c->failure_known ? NULL : c->failure);
  mshed_json_end (&w);
}

void
mshed_check_report_json_document (GString                 *out,
                                  MshedMode                mode,
                                  const GString           *files,
                                  const GString           *diagnostics,
                                  const MshedFolderTotals *t,
                                  gboolean                 baseline)
{
  g_autofree char *summary = mshed_folder_totals_summary (t, baseline);
  MshedJsonWriter doc, totals;

  mshed_json_begin (&doc, out, 0);
  mshed_json_string (&doc, "mode", mode == MSHED_MODE_STRICT ? "strict" : "tolerant");
  mshed_json_array (&doc, "files", files);
  mshed_json_array (&doc, "diagnostics", diagnostics);
  mshed_json_member (&doc, "summary");
  mshed_json_begin (&totals, out, 1);
  mshed_json_int (&totals, "files", t->n_files, TRUE);
  mshed_json_int (&totals, "models", t->n_models, TRUE);
  mshed_json_int (&totals, "dfm", t->n_dfm, TRUE);
  mshed_json_int (&totals, "utf", t->n_utf, TRUE);
  mshed_json_int (&totals, "errors", t->n_errors, TRUE);
  mshed_json_int (&totals, "warnings", t->n_warnings, TRUE);
  mshed_json_int (&totals, "infos", t->n_infos, TRUE);
  mshed_json_int (&totals, "unreadable", t->n_unreadable, TRUE);
  if (baseline)
    mshed_json_int (&totals, "known", t->n_known, TRUE);
  mshed_json_string (&totals, "text", summary);
  mshed_json_end (&totals);
  mshed_json_end (&doc);
  g_string_append_c (out, '\n');
}

static char *
report_json (GPtrArray               *results,
             MshedMode                mode,
             const MshedFolderTotals *totals,
             gboolean                 baseline)
{
  g_autoptr(GString) files = g_string_new (NULL);
  g_autoptr(GString) diagnostics = g_string_new (NULL);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < results->len; i++)
    {
      const MshedFileCheck *c = g_ptr_array_index (results, i);
      guint n = c->diags ? mshed_diagnostics_get_n_items (c->diags) : 0;

      for (guint k = 0; k < n; k++)
        if (c->known == NULL || !c->known[k])
          mshed_check_report_json_diagnostic (diagnostics, c->path,
                                              mshed_diagnostics_get (c->diags, k));
      mshed_check_report_json_file (files, c);
    }
  mshed_check_report_json_document (out, mode, files, diagnostics, totals, baseline);
  return g_string_free (out, FALSE);
}

/* The rows every table report lists ------------------------------------------------------ */

typedef struct {
  const MshedFileCheck  *file;
  const MshedDiagnostic *d;        /* NULL for a failure or an unreadable file */
  const char            *check;
  MshedSeverity          severity;
  const char            *message;
} Row;

static GArray *
collect_rows (GPtrArray *results)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (Row));

  for (guint i = 0; i < results->len; i++)
    {
      const MshedFileCheck *c = g_ptr_array_index (results, i);
      guint n = c->diags ? mshed_diagnostics_get_n_items (c->diags) : 0;
      Row row = { c, NULL, "unreadable", MSHED_SEVERITY_ERROR, c->unreadable };

      if (c->unreadable)
        {
          g_array_append_val (rows, row);
          continue;
        }
      for (guint k = 0; k < n; k++)
        {
          const MshedDiagnostic *d = mshed_diagnostics_get (c->diags, k);

          if (c->known && c->known[k])
            continue;
          row = (Row) { c, d, mshed_check_to_string (d->check), d->severity, d->message };
          g_array_append_val (rows, row);
        }
      if (c->diags && mshed_file_check_failure_shown (c))
        {
          row = (Row) { c, NULL, "failure", MSHED_SEVERITY_ERROR, c->failure };
          g_array_append_val (rows, row);
        }
    }
  return rows;
}

char *
mshed_check_report_location (const MshedDiagnostic *d)
{
  const char *table;
  GString *s;

  if (d == NULL)
    return g_strdup ("");
  table = d->path ? d->path : mshed_diagnostic_table_name (d);
  s = g_string_new (table ? table : "");
  if (table && d->record >= 0)
    g_string_append_printf (s, "[%" G_GINT64_FORMAT "]", d->record);
  if (d->field)
    g_string_append_printf (s, "%s%s", s->len ? "." : "", d->field);
  return g_string_free (s, FALSE);
}

const char *
mshed_check_report_severity_label (MshedSeverity severity)
{
  switch (severity)
    {
    case MSHED_SEVERITY_INFO:
      return _("info");
    case MSHED_SEVERITY_WARNING:
      return _("warning");
    case MSHED_SEVERITY_ERROR:
    default:
      return _("error");
    }
}

/* CSV (RFC 4180) --------------------------------------------------------------------------- */

static void
csv_field (GString    *out,
           const char *text,
           gboolean    last)
{
  text = text ? text : "";
  if (strpbrk (text, ",\"\r\n") != NULL)
    {
      g_string_append_c (out, '"');
      for (const char *p = text; *p; p++)
        {
          if (*p == '"')
            g_string_append_c (out, '"');
          g_string_append_c (out, *p);
        }
      g_string_append_c (out, '"');
    }
  else
    g_string_append (out, text);
  g_string_append (out, last ? "\r\n" : ",");
}

static char *
report_csv (GPtrArray *results)
{
  g_autoptr(GArray) rows = collect_rows (results);
  GString *out = g_string_new ("file,entry,severity,check,table,record,field,path,offset,"
                               "message\r\n");

  for (guint i = 0; i < rows->len; i++)
    {
      const Row *row = &g_array_index (rows, Row, i);
      const MshedDiagnostic *d = row->d;
      g_autofree char *record = d && d->record >= 0
        ? g_strdup_printf ("%" G_GINT64_FORMAT, d->record) : NULL;
      g_autofree char *offset = d ? g_strdup_printf ("%" G_GUINT64_FORMAT, d->offset) : NULL;

      csv_field (out, row->file->path, FALSE);
      csv_field (out, d ? d->entry : NULL, FALSE);
      csv_field (out, mshed_severity_to_string (row->severity), FALSE);
      csv_field (out, row->check, FALSE);
      csv_field (out, d ? mshed_diagnostic_table_name (d) : NULL, FALSE);
      csv_field (out, record, FALSE);
      csv_field (out, d ? d->field : NULL, FALSE);
      csv_field (out, d ? d->path : NULL, FALSE);
      csv_field (out, offset, FALSE);
      csv_field (out, row->message, TRUE);
    }
  return g_string_free (out, FALSE);
}

/* HTML ----------------------------------------------------------------------------------- */

static const char html_style[] =
  ":root{color-scheme:light dark;--bg:#fff;--fg:#222;--muted:#666;--line:#ddd;--head:#f3f3f3;"
  "--err:#c01c28;--warn:#b56a00;--info:#1c71d8}\n"
  "@media (prefers-color-scheme:dark){:root{--bg:#1e1e1e;--fg:#eee;--muted:#aaa;"
  "--line:#444;--head:#2a2a2a;--err:#ff7b7b;--warn:#f5c211;--info:#78aeed}}\n"
  "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;background:var(--bg);"
  "color:var(--fg)}\n"
  "h1{font-size:1.5em;margin:0 0 .2em}h2{font-size:1.2em;margin:1.2em 0 .4em}\n"
  ".muted{color:var(--muted)}.summary{font-weight:600;margin:.4em 0 1em}\n"
  "nav{margin:.5em 0 1em}nav a{margin-right:1em}\n"
  "#tools{display:none;gap:1em;align-items:center;margin-bottom:1em}\n"
  "#tools input[type=search]{padding:.3em;min-width:20em}\n"
  "details{border:1px solid var(--line);border-radius:6px;margin:.4em 0}\n"
  "summary{cursor:pointer;padding:.4em .6em;background:var(--head);border-radius:6px}\n"
  "summary .n{color:var(--muted);margin-left:.5em}\n"
  "table{border-collapse:collapse;width:100%}\n"
  "th,td{text-align:left;padding:.25em .6em;border-top:1px solid var(--line);"
  "vertical-align:top}\n"
  "th{font-weight:600}td.off,td.loc{font-family:monospace}td.off,td.chk{white-space:nowrap}"
  "td.loc{overflow-wrap:break-word;min-width:20ch}\n"
  ".sev{font-weight:600}.error{color:var(--err)}.warning{color:var(--warn)}"
  ".info{color:var(--info)}\n"
  "body.js .group{display:none}body.js .group.shown{display:block}\n"
  "body.js #tools{display:flex}\n";

/* Filtering and switching the grouping; the page reads the same without it. */
static const char html_script[] =
  "document.body.classList.add('js');\n"
  "function show(g){for(const s of document.querySelectorAll('.group'))"
  "s.classList.toggle('shown',s.id===g);}\n"
  "function filter(t){t=t.toLowerCase();"
  "for(const r of document.querySelectorAll('tr[data-t]'))"
  "r.hidden=t!==''&&!r.dataset.t.includes(t);"
  "for(const d of document.querySelectorAll('details'))"
  "d.hidden=!d.querySelector('tr[data-t]:not([hidden])');}\n"
  "show('by-file');\n"
  "for(const r of document.querySelectorAll('input[name=group]'))"
  "r.addEventListener('change',()=>show(r.value));\n"
  "document.getElementById('filter').addEventListener('input',e=>filter(e.target.value));\n";

static void
html_text (GString    *out,
           const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text ? text : "", -1);

  g_string_append (out, escaped);
}

static void
html_cell (GString    *out,
           const char *class,
           const char *text)
{
  if (class)
    g_string_append_printf (out, "<td class=\"%s\">", class);
  else
    g_string_append (out, "<td>");
  html_text (out, text);
  g_string_append (out, "</td>");
}

/* A location, with a break opportunity after each backslash and dot (node paths are long);
 * escaping adds neither. */
static void
html_location (GString    *out,
               const char *location)
{
  g_autofree char *escaped = g_markup_escape_text (location, -1);

  g_string_append (out, "<td class=\"loc\">");
  for (const char *p = escaped; *p; p++)
    {
      g_string_append_c (out, *p);
      if (*p == '\\' || *p == '.')
        g_string_append (out, "<wbr>");
    }
  g_string_append (out, "</td>");
}

static void
html_head_row (GString  *out,
               gboolean  with_file)
{
  g_string_append (out, "<tr>");
  g_string_append_printf (out, "<th>%s</th>", _("Severity"));
  if (with_file)
    g_string_append_printf (out, "<th>%s</th>", _("File"));
  else
    g_string_append_printf (out, "<th>%s</th>", _("Check"));
  g_string_append_printf (out, "<th>%s</th><th>%s</th><th>%s</th><th>%s</th></tr>\n",
                          _("Entry"), _("Location"), _("Offset"), _("Message"));
}

static void
html_row (GString   *out,
          const Row *row,
          gboolean   with_file)
{
  const MshedDiagnostic *d = row->d;
  const char *sev = mshed_severity_to_string (row->severity);
  g_autofree char *location = mshed_check_report_location (row->d);
  g_autofree char *offset = d ? g_strdup_printf ("0x%" PRIX64, d->offset) : NULL;
  g_autofree char *search = g_strjoin (" ", row->file->path, row->check, location,
                                       row->message ? row->message : "",
                                       d && d->entry ? d->entry : "", NULL);
  g_autofree char *folded = g_utf8_strdown (search, -1);

  g_string_append (out, "<tr data-t=\"");
  html_text (out, folded);
  g_string_append (out, "\">");
  g_string_append_printf (out, "<td class=\"sev %s\">", sev);
  html_text (out, mshed_check_report_severity_label (row->severity));
  g_string_append (out, "</td>");
  html_cell (out, with_file ? NULL : "chk", with_file ? row->file->path : row->check);
  html_cell (out, NULL, d ? d->entry : NULL);
  html_location (out, location);
  html_cell (out, "off", offset);
  html_cell (out, NULL, row->message);
  g_string_append (out, "</tr>\n");
}

/* One <details> a group: @title, then its rows (with the file when grouped by check, else
 * with the check). */
static void
html_group (GString    *out,
            const char *title,
            GPtrArray  *members,
            gboolean    with_file)
{
  g_string_append (out, "<details open><summary>");
  html_text (out, title);
  g_string_append_printf (out, "<span class=\"n\">%u</span></summary>\n<table>\n",
                          members->len);
  html_head_row (out, with_file);
  for (guint i = 0; i < members->len; i++)
    html_row (out, g_ptr_array_index (members, i), with_file);
  g_string_append (out, "</table></details>\n");
}

static int
compare_by_check (gconstpointer a,
                  gconstpointer b)
{
  const Row *x = *(const Row *const *) a;
  const Row *y = *(const Row *const *) b;
  int c = strcmp (x->check, y->check);

  if (c != 0)
    return c;
  return x->file->index < y->file->index ? -1 : x->file->index > y->file->index;
}

/* Rows grouped by file (walk order), or by check (name order, then walk order). */
static void
html_groups (GString  *out,
             GArray   *rows,
             gboolean  by_check)
{
  g_autoptr(GPtrArray) order = g_ptr_array_new ();
  g_autoptr(GPtrArray) members = g_ptr_array_new ();

  for (guint i = 0; i < rows->len; i++)
    g_ptr_array_add (order, &g_array_index (rows, Row, i));
  if (by_check)
    g_ptr_array_sort (order, compare_by_check);  /* stable: merge sort */
  for (guint i = 0; i < order->len; i++)
    {
      const Row *row = g_ptr_array_index (order, i);
      const Row *next = i + 1 < order->len ? g_ptr_array_index (order, i + 1) : NULL;

      g_ptr_array_add (members, (gpointer) row);
      if (next && (by_check ? strcmp (next->check, row->check) == 0 : next->file == row->file))
        continue;
      html_group (out, by_check ? row->check : row->file->path, members, by_check);
      g_ptr_array_set_size (members, 0);
    }
}

static char *
report_html (GPtrArray               *results,
             const char              *root,
             const MshedFolderTotals *totals,
             gboolean                 baseline)
{
  g_autoptr(GArray) rows = collect_rows (results);
  g_autofree char *summary = mshed_folder_totals_summary (totals, baseline);
  GString *out = g_string_new ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
                               "<meta name=\"viewport\" content=\"width=device-width\">\n");

  g_string_append (out, "<title>");
  html_text (out, _("mshed check report"));
  g_string_append (out, ": ");
  html_text (out, root);
  g_string_append_printf (out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", html_style);
  g_string_append (out, "<h1>");
  html_text (out, _("mshed check report"));
  g_string_append (out, "</h1>\n<div class=\"muted\">");
  html_text (out, root);
  g_string_append (out, "</div>\n<p class=\"summary\">");
  html_text (out, summary);
  g_string_append (out, "</p>\n");
  if (rows->len == 0)
    {
      g_string_append_printf (out, "<p>%s</p>\n", _("No problems found."));
      g_string_append (out, "</body></html>\n");
      return g_string_free (out, FALSE);
    }
  g_string_append_printf (out, "<nav><a href=\"#by-file\">%s</a><a href=\"#by-check\">%s</a>"
                          "</nav>\n", _("By file"), _("By check"));
  g_string_append_printf (out, "<div id=\"tools\"><input id=\"filter\" type=\"search\" "
                          "placeholder=\"%s\">"
                          "<label><input type=\"radio\" name=\"group\" value=\"by-file\" "
                          "checked> %s</label>"
                          "<label><input type=\"radio\" name=\"group\" value=\"by-check\"> "
                          "%s</label></div>\n", _("Filter"), _("By file"), _("By check"));
  g_string_append_printf (out, "<section class=\"group\" id=\"by-file\"><h2>%s</h2>\n",
                          _("By file"));
  html_groups (out, rows, FALSE);
  g_string_append_printf (out, "</section>\n<section class=\"group\" id=\"by-check\">"
                          "<h2>%s</h2>\n", _("By check"));
  html_groups (out, rows, TRUE);
  g_string_append_printf (out, "</section>\n<script>\n%s</script>\n</body></html>\n",
                          html_script);
  return g_string_free (out, FALSE);
}

/* Entry points --------------------------------------------------------------------------- */

char *
mshed_check_report_format (MshedReportFormat        format,
                           GPtrArray               *results,
                           const char              *root,
                           MshedMode                mode,
                           const MshedFolderTotals *totals,
                           gboolean                 baseline)
{
  switch (format)
    {
    case MSHED_REPORT_CSV:
      return report_csv (results);
    case MSHED_REPORT_HTML:
      return report_html (results, root, totals, baseline);
    case MSHED_REPORT_JSON:
    default:
      return report_json (results, mode, totals, baseline);
    }
}

gboolean
mshed_check_report_write (MshedReportFormat        format,
                          const char              *path,
                          GPtrArray               *results,
                          const char              *root,
                          MshedMode                mode,
                          const MshedFolderTotals *totals,
                          gboolean                 baseline,
                          GError                 **error)
{
  g_autofree char *text = mshed_check_report_format (format, results, root, mode, totals,
                                                     baseline);

  return g_file_set_contents (path, text, (gssize) strlen (text), error);
}
