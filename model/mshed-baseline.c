/* mshed-baseline.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Baselines of `mshed-cli validate` (README, "Baselines"): the identity of a finding, and a
 * reader of the baseline file. A finding is known by where it is, never by its byte offset
 * (an insertion earlier in the file moves every offset after it): the file relative to the
 * PATH argument, the archive entry, the check, and the resource type + table + record + field
 * (NRes) or the node path + table + record + field (UTF, DFM). Shared by the CLI and the
 * Check Folder window (app/mshed-check-window.c).
 *
 * The file is JSON, written by mshed-cli validate --write-baseline. The reader is our own and
 * small (the CLI loads no json-glib): any JSON is parsed, and the members the format names are
 * taken from it; other members are ignored.
 */
#define G_LOG_DOMAIN "mshed-baseline"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "mshed-baseline.h"
#include "mshed-dfm-schema.h"
#include "mshed-error.h"
#include "mshed-schema.h"
#include "mshed-source.h"

struct _MshedBaseline {
  GHashTable *counts;  /* key → GUINT_TO_POINTER (how many findings have it) */
  guint       n_findings;
};

/* The key -------------------------------------------------------------------------------- */

static void
key_part (GString    *key,
          const char *value)
{
  /* a unit separator between the parts: it never occurs in a name or a path */
  if (key->len)
    g_string_append_c (key, '\x1f');
  g_string_append (key, value ? value : "\x1e");
}

static void
key_number (GString *key,
            gint64   value)
{
  g_autofree char *text = value >= 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, value) : NULL;

  key_part (key, text);
}

char *
mshed_baseline_key (const MshedFinding *f)
{
  GString *key = g_string_new (NULL);

  key_part (key, f->file);
  key_part (key, f->entry);
  key_part (key, f->check);
  key_number (key, f->res_type);
  key_part (key, f->table);
  key_number (key, f->record);
  key_part (key, f->field);
  key_part (key, f->path);
  return g_string_free (key, FALSE);
}

/* A small JSON reader --------------------------------------------------------------------- */

typedef enum {
  VALUE_NULL,
  VALUE_BOOL,
  VALUE_NUMBER,
  VALUE_STRING,
  VALUE_ARRAY,
  VALUE_OBJECT,
} ValueKind;

typedef struct _Value Value;
struct _Value {
  ValueKind  kind;
  double     number;
  char      *string;
  GPtrArray *items;  /* array: Value*; object: the member values */
  GPtrArray *names;  /* object: the member names */
};

static void
value_free (gpointer data)
{
  Value *v = data;

  if (v == NULL)
    return;
  g_free (v->string);
  if (v->items)
    g_ptr_array_unref (v->items);
  if (v->names)
    g_ptr_array_unref (v->names);
  g_free (v);
}

typedef struct {
  const char *p;
  const char *start;
  guint       depth;
} Reader;

static gboolean G_GNUC_PRINTF (3, 4)
fail (Reader     *r,
      GError    **error,
      const char *format,
      ...)
{
  g_autofree char *what = NULL;
  guint line = 1;
  va_list args;

  for (const char *q = r->start; q < r->p; q++)
    line += *q == '\n';
  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID, _("line %u: %s"), line,
               what);
  return FALSE;
}

static void
skip_space (Reader *r)
{
  while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')
    r->p++;
}

static gboolean read_value (Reader *r, Value **out, GError **error);

static gboolean
read_string (Reader  *r,
             char   **out,
             GError **error)
{
  g_autoptr(GString) s = g_string_new (NULL);

  r->p++;  /* the quote */
  while (*r->p != '"')
    {
      if (*r->p == '\0' || (guchar) *r->p < 0x20)
        return fail (r, error, _("a string is not closed"));
      if (*r->p != '\\')
        {
          g_string_append_c (s, *r->p++);
          continue;
        }
      r->p++;
      switch (*r->p)
        {
        case '"': case '\\': case '/': g_string_append_c (s, *r->p); break;
        case 'b': g_string_append_c (s, '\b'); break;
        case 'f': g_string_append_c (s, '\f'); break;
        case 'n': g_string_append_c (s, '\n'); break;
        case 'r': g_string_append_c (s, '\r'); break;
        case 't': g_string_append_c (s, '\t'); break;
        case 'u':
          {
            char hex[5] = { 0 };
            gunichar c;

            for (guint i = 0; i < 4; i++)
              if (!g_ascii_isxdigit (r->p[1 + i]))
                return fail (r, error, _("a \\u escape needs four hexadecimal digits"));
            memcpy (hex, r->p + 1, 4);
            c = (gunichar) strtoul (hex, NULL, 16);
            g_string_append_unichar (s, c);
            r->p += 4;
            break;
          }
        default:
          return fail (r, error, _("an unknown escape in a string"));
        }
      r->p++;
    }
  r->p++;
  if (!g_utf8_validate (s->str, (gssize) s->len, NULL))
    return fail (r, error, _("a string is not valid UTF-8"));
  *out = g_string_free (g_steal_pointer (&s), FALSE);
  return TRUE;
}

/* Reads the elements of an array or the members of an object, after the opening bracket. */
static gboolean
read_items (Reader  *r,
            Value   *v,
            char     close,
            GError **error)
{
  skip_space (r);
  if (*r->p == close)
    {
      r->p++;
      return TRUE;
    }
  for (;;)
    {
      Value *item = NULL;

      skip_space (r);
      if (v->kind == VALUE_OBJECT)
        {
          char *name = NULL;

          if (*r->p != '"')
            return fail (r, error, _("a member name was expected"));
          if (!read_string (r, &name, error))
            return FALSE;
          g_ptr_array_add (v->names, name);
          skip_space (r);
          if (*r->p++ != ':')
            return fail (r, error, _("“:” was expected after a member name"));
        }
      if (!read_value (r, &item, error))
        return FALSE;
      g_ptr_array_add (v->items, item);
      skip_space (r);
      if (*r->p == ',')
        r->p++;
      else if (*r->p == close)
        {
          r->p++;
          return TRUE;
        }
      else
        return fail (r, error, _("“,” or “%c” was expected"), close);
    }
}

static gboolean
read_value (Reader  *r,
            Value  **out,
            GError **error)
{
  g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func (value_free);
  Value *v = g_new0 (Value, 1);
  gboolean ok = TRUE;

  g_ptr_array_add (keep, v);
  skip_space (r);
  if (++r->depth > 64)
    return fail (r, error, _("the values are nested too deeply"));
  if (*r->p == '{' || *r->p == '[')
    {
      v->kind = *r->p == '{' ? VALUE_OBJECT : VALUE_ARRAY;
      v->items = g_ptr_array_new_with_free_func (value_free);
      if (v->kind == VALUE_OBJECT)
        v->names = g_ptr_array_new_with_free_func (g_free);
      r->p++;
      ok = read_items (r, v, v->kind == VALUE_OBJECT ? '}' : ']', error);
    }
  else if (*r->p == '"')
    {
      v->kind = VALUE_STRING;
      ok = read_string (r, &v->string, error);
    }
  else if (g_str_has_prefix (r->p, "null") || g_str_has_prefix (r->p, "true") ||
           g_str_has_prefix (r->p, "false"))
    {
      v->kind = *r->p == 'n' ? VALUE_NULL : VALUE_BOOL;
      v->number = *r->p == 't';
      r->p += *r->p == 'f' ? 5 : 4;
    }
  else if (*r->p == '-' || g_ascii_isdigit (*r->p))
    {
      char *end = NULL;

      v->kind = VALUE_NUMBER;
      v->number = g_ascii_strtod (r->p, &end);
      if (end == r->p)
        return fail (r, error, _("a number is malformed"));
      r->p = end;
    }
  else
    ok = fail (r, error, *r->p ? _("a value was expected") : _("the text ends too early"));
  r->depth--;
  if (ok)
    *out = g_ptr_array_steal_index (keep, 0);
  return ok;
}

static const Value *
member (const Value *object,
        const char  *name)
{
  for (guint i = 0; i < object->names->len; i++)
    if (strcmp (g_ptr_array_index (object->names, i), name) == 0)
      return g_ptr_array_index (object->items, i);
  return NULL;
}

/* A string member, or NULL for null; FALSE when it is missing or of another kind. */
static gboolean
member_string (const Value  *object,
               const char   *name,
               const char  **out)
{
  const Value *v = member (object, name);

  *out = v && v->kind == VALUE_STRING ? v->string : NULL;
  return v && (v->kind == VALUE_STRING || v->kind == VALUE_NULL);
}

/* A whole number member, or -1 for null. */
static gboolean
member_int (const Value *object,
            const char  *name,
            gint64      *out)
{
  const Value *v = member (object, name);

  *out = -1;
  if (v && v->kind == VALUE_NUMBER && v->number >= 0 && v->number <= G_MAXUINT32 &&
      v->number == (gint64) v->number)
    *out = (gint64) v->number;
  return v && (v->kind == VALUE_NULL || *out >= 0);
}

static gboolean
read_finding (const Value    *object,
              guint           index,
              MshedBaseline  *self,
              GError        **error)
{
  MshedFinding f = { 0 };
  char *key;

  if (object->kind != VALUE_OBJECT ||
      !member_string (object, "file", &f.file) || f.file == NULL ||
      !member_string (object, "entry", &f.entry) ||
      !member_string (object, "check", &f.check) || f.check == NULL ||
      !member_int (object, "res_type", &f.res_type) ||
      !member_string (object, "table", &f.table) ||
      !member_int (object, "record", &f.record) ||
      !member_string (object, "field", &f.field) ||
      !member_string (object, "path", &f.path))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("finding %u: it needs the members file, entry, check, res_type, table, "
                     "record, field and path (strings, whole numbers or null)"), index);
      return FALSE;
    }
  key = mshed_baseline_key (&f);
  g_hash_table_insert (self->counts, key,
                       GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (self->counts,
                                                                                key)) + 1));
  self->n_findings++;
  return TRUE;
}

static gboolean
read_baseline (MshedBaseline  *self,
               const char     *text,
               GError        **error)
{
  Reader r = { text, text, 0 };
  Value *root = NULL;
  const Value *version, *findings;
  gboolean ok = TRUE;

  if (!read_value (&r, &root, error))
    return FALSE;
  skip_space (&r);
  if (*r.p != '\0')
    ok = fail (&r, error, _("text follows the baseline"));
  else if (root->kind != VALUE_OBJECT ||
           (version = member (root, "mshed-baseline")) == NULL || version->kind != VALUE_NUMBER)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("not an mshed baseline (no “mshed-baseline” version member)"));
      ok = FALSE;
    }
  else if (version->number != 1)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("baseline version %g is not supported (this mshed reads version 1)"),
                   version->number);
      ok = FALSE;
    }
  else if ((findings = member (root, "findings")) == NULL || findings->kind != VALUE_ARRAY)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("the baseline has no “findings” array"));
      ok = FALSE;
    }
  else
    for (guint i = 0; ok && i < findings->items->len; i++)
      ok = read_finding (g_ptr_array_index (findings->items, i), i, self, error);
  value_free (root);
  return ok;
}

MshedBaseline *
mshed_baseline_load (const char  *path,
                     GError     **error)
{
  g_autoptr(GBytes) bytes = mshed_load_file (path, error);
  g_autoptr(GError) local = NULL;
  g_autofree char *text = NULL;
  MshedBaseline *self;
  gsize size;

  if (bytes == NULL)
    return NULL;
  text = g_strndup (g_bytes_get_data (bytes, &size), g_bytes_get_size (bytes));
  self = g_new0 (MshedBaseline, 1);
  self->counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (strlen (text) != size)
    g_set_error (&local, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                 _("the file holds a NUL byte, so it is no JSON"));
  if (local || !read_baseline (self, text, &local))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID, _("Baseline “%s”: %s"),
                   path,
                   local->message);
      mshed_baseline_free (self);
      return NULL;
    }
  return self;
}

void
mshed_baseline_free (MshedBaseline *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->counts);
  g_free (self);
}

guint
mshed_baseline_count (const MshedBaseline *self,
                      const char          *key)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (self->counts, key));
}

/* The CLI name of the table of @d (MSH or DFM), or NULL. */
const char *
mshed_diagnostic_table_name (const MshedDiagnostic *d)
{
  const MshedDfmTableInfo *dfm_table = mshed_dfm_schema_get_table ((MshedDfmTable) d->table);

  if (d->table >= 0 && d->table < MSHED_N_TABLES)
    return mshed_schema_get_table (d->table)->name;
  return dfm_table ? dfm_table->name : NULL;
}

void
mshed_finding_init (MshedFinding          *f,
                    const char            *file,
                    const MshedDiagnostic *d)
{
  *f = (MshedFinding) { file, NULL, "failure", -1, NULL, -1, NULL, NULL };
  if (d == NULL)
    return;
  f->entry = d->entry;
  f->check = mshed_check_to_string (d->check);
  f->res_type = d->res_type != G_MAXUINT32 ? (gint64) d->res_type : -1;
  f->table = mshed_diagnostic_table_name (d);
  f->record = d->record >= 0 ? d->record : -1;
  f->field = d->field;
  f->path = d->path;
}
