/* mshed-merge.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The three-way merge of docs/diff.md §5. The merge is planned first (a list of operations on
 * BASE, some of them conflicts with two alternatives), then applied to a document on a copy of
 * BASE as document commands in one undo group.
 */
#define G_LOG_DOMAIN "mshed-merge"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-copy.h"
#include "mshed-cp1251.h"
#include "mshed-dfm.h"
#include "mshed-diff-private.h"
#include "mshed-error.h"
#include "mshed-merge.h"
#include "mshed-utf-crc.h"

typedef enum {
  OP_PAYLOAD,     /* MSH: resource @res gets @buffer */
  OP_ATTR,        /* MSH: attribute @attr of resource @res */
  OP_RENAME,      /* MSH: node @node gets a name */
  OP_WHOLE,       /* MSH: resource @res (-1: not in BASE) becomes an entry of a side, or goes */
  OP_UTF_DATA,    /* UTF: the file at @path gets @buffer */
  OP_UTF_WHOLE,   /* UTF: the node at @path (or @name under @path) becomes a side's, or goes */
} OpKind;

/* Without a conflict an operation applies its "mine" alternative. */
typedef struct {
  OpKind                kind;
  gint                  conflict;
  gint                  res;
  GByteArray           *buffer;
  guint                 attr;
  guint32               value_mine;
  guint32               value_theirs;
  guint                 node;
  char                 *name_mine;
  char                 *name_theirs;
  const MshedNresEntry *entry_mine;
  const MshedNresEntry *entry_theirs;
  char                 *path;
  char                 *name;        /* OP_UTF_WHOLE of a node BASE lacks: its name */
  guint                 index;       /* ... and its place under @path */
  MshedUtfNode         *node_mine;
  MshedUtfNode         *node_theirs;
} Op;

/* A conflict inside an operation's buffer: the bytes to copy from the chosen side. */
typedef struct {
  guint         op;
  gsize         offset;
  gsize         length;
  const guint8 *mine;     /* the sides' payloads (NULL: the operation holds the choice) */
  const guint8 *theirs;
} ConflictPriv;

struct _MshedMerge {
  GArray     *ops;
  GArray     *conflicts;
  GArray     *priv;
  MshedModel *models[3];
  MshedUtf   *trees[3];
};

static void
op_clear (Op *op)
{
  if (op->buffer)
    g_byte_array_unref (op->buffer);
  g_free (op->name_mine);
  g_free (op->name_theirs);
  g_free (op->path);
  g_free (op->name);
}

static void
conflict_clear (MshedMergeConflict *c)
{
  g_free (c->base_value);
  g_free (c->mine_value);
  g_free (c->theirs_value);
  g_free (c->res_name);
  g_free (c->path);
}

static MshedMerge *
merge_new (void)
{
  MshedMerge *self = g_new0 (MshedMerge, 1);

  self->ops = g_array_new (FALSE, TRUE, sizeof (Op));
  g_array_set_clear_func (self->ops, (GDestroyNotify) op_clear);
  self->conflicts = g_array_new (FALSE, TRUE, sizeof (MshedMergeConflict));
  g_array_set_clear_func (self->conflicts, (GDestroyNotify) conflict_clear);
  self->priv = g_array_new (FALSE, TRUE, sizeof (ConflictPriv));
  return self;
}

void
mshed_merge_free (MshedMerge *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->ops);
  g_array_unref (self->conflicts);
  g_array_unref (self->priv);
  for (guint i = 0; i < 3; i++)
    {
      g_clear_pointer (&self->models[i], mshed_model_unref);
      g_clear_pointer (&self->trees[i], mshed_utf_unref);
    }
  g_free (self);
}

static Op *
add_op (MshedMerge *self,
        OpKind      kind)
{
  Op op = { 0 };

  op.kind = kind;
  op.conflict = -1;
  op.res = -1;
  g_array_append_val (self->ops, op);
  return &g_array_index (self->ops, Op, self->ops->len - 1);
}

/* The address a conflict is reported at. */
typedef struct {
  guint32     res_type;
  const char *res_name;
  const char *path;
} Where;

static MshedMergeConflict *
add_conflict (MshedMerge             *self,
              MshedMergeConflictKind  kind,
              const Where            *where,
              guint                   op,
              char                   *base_value,
              char                   *mine_value,
              char                   *theirs_value)
{
  MshedMergeConflict c = { 0 };
  ConflictPriv p = { 0 };

  c.kind = kind;
  c.table = -1;
  c.row = G_MAXUINT;
  c.base_value = base_value;
  c.mine_value = mine_value;
  c.theirs_value = theirs_value;
  c.res_type = where->res_type;
  c.res_name = g_strdup (where->res_name);
  c.path = g_strdup (where->path);
  p.op = op;
  g_array_append_val (self->conflicts, c);
  g_array_append_val (self->priv, p);
  g_array_index (self->ops, Op, op).conflict = (gint) self->conflicts->len - 1;
  return &g_array_index (self->conflicts, MshedMergeConflict, self->conflicts->len - 1);
}

guint
mshed_merge_get_n_conflicts (const MshedMerge *self)
{
  return self->conflicts->len;
}

const MshedMergeConflict *
mshed_merge_get_conflict (const MshedMerge *self,
                          guint             index)
{
  g_return_val_if_fail (index < self->conflicts->len, NULL);
  return &g_array_index (self->conflicts, MshedMergeConflict, index);
}

void
mshed_merge_resolve (MshedMerge       *self,
                     guint             index,
                     MshedMergeChoice  choice)
{
  g_return_if_fail (index < self->conflicts->len);
  g_array_index (self->conflicts, MshedMergeConflict, index).choice = choice;
}

void
mshed_merge_resolve_all (MshedMerge       *self,
                         MshedMergeChoice  choice)
{
  for (guint i = 0; i < self->conflicts->len; i++)
    mshed_merge_resolve (self, i, choice);
}

guint
mshed_merge_get_n_unresolved (const MshedMerge *self)
{
  guint n = 0;

  for (guint i = 0; i < self->conflicts->len; i++)
    n += g_array_index (self->conflicts, MshedMergeConflict, i).choice == MSHED_MERGE_UNRESOLVED;
  return n;
}

/* Units of equal-size payloads (docs/diff.md §5.2) -------------------------------------- */

typedef struct {
  MshedMerge   *merge;
  guint         op;
  const guint8 *b;
  const guint8 *m;
  const guint8 *t;
  guint8       *out;
  Where         where;
} Merge3;

static char *
text_value (const guint8 *p,
            gsize         n)
{
  gsize len = 0;

  while (len < n && p[len] != 0)
    len++;
  return mshed_cp1251_to_utf8 (p, len, NULL);
}

/* Three-way rule for the unit [@off, @off + @len): FALSE when it is a conflict. */
static gboolean
merge_range (Merge3 *x,
             gsize   off,
             gsize   len)
{
  if (memcmp (x->b + off, x->m + off, len) == 0)
    memcpy (x->out + off, x->t + off, len);
  else if (memcmp (x->b + off, x->t + off, len) == 0 || memcmp (x->m + off, x->t + off, len) == 0)
    memcpy (x->out + off, x->m + off, len);
  else
    return FALSE;
  return TRUE;
}

static void
unit_conflict (Merge3                 *x,
               MshedMergeConflictKind  kind,
               gint                    table,
               const char             *table_name,
               guint                   row,
               const char             *field,
               char                   *vb,
               char                   *vm,
               char                   *vt,
               gsize                   off,
               gsize                   len)
{
  MshedMergeConflict *c = add_conflict (x->merge, kind, &x->where, x->op, vb, vm, vt);
  ConflictPriv *p = &g_array_index (x->merge->priv, ConflictPriv, x->merge->priv->len - 1);

  c->table = table;
  c->table_name = table_name;
  c->row = row;
  c->field = field;
  c->offset = off;
  c->length = len;
  p->offset = off;
  p->length = len;
  p->mine = x->m;
  p->theirs = x->t;
}

static void
merge_bytes (Merge3     *x,
             gint        table,
             const char *table_name,
             gsize       off,
             gsize       len)
{
  for (gsize i = off; i < off + len; i++)
    {
      MshedMergeConflict *last;
      ConflictPriv *p;

      if (merge_range (x, i, 1))
        continue;
      last = x->merge->conflicts->len ? &g_array_index (x->merge->conflicts, MshedMergeConflict,
                                                        x->merge->conflicts->len - 1) : NULL;
      p = last ? &g_array_index (x->merge->priv, ConflictPriv, x->merge->priv->len - 1) : NULL;
      if (last && last->kind == MSHED_MERGE_CONFLICT_BYTES && p->op == x->op &&
          p->offset + p->length == i)
        {
          p->length++;
          last->length++;
          g_free (last->base_value);
          g_free (last->mine_value);
          g_free (last->theirs_value);
          last->base_value = mshed_diff_hex (x->b + p->offset, p->length);
          last->mine_value = mshed_diff_hex (x->m + p->offset, p->length);
          last->theirs_value = mshed_diff_hex (x->t + p->offset, p->length);
          continue;
        }
      unit_conflict (x, MSHED_MERGE_CONFLICT_BYTES, table, table_name, G_MAXUINT, NULL,
                     mshed_diff_hex (x->b + i, 1), mshed_diff_hex (x->m + i, 1),
                     mshed_diff_hex (x->t + i, 1), i, 1);
    }
}

static void
merge_record (Merge3               *x,
              const MshedDiffTable *t,
              const guint8         *mask,
              gsize                 rec,
              guint                 row)
{
  for (guint k = 0; k < t->n_fields; k++)
    {
      const MshedField *f = &t->fields[k];
      guint size = mshed_field_type_size (f->type);

      if (f->offset + size > t->stride || merge_range (x, rec + f->offset, size))
        continue;
      unit_conflict (x, MSHED_MERGE_CONFLICT_FIELD, t->table, t->table_name, row, f->name,
                     mshed_field_format (f, x->b + rec), mshed_field_format (f, x->m + rec),
                     mshed_field_format (f, x->t + rec), rec + f->offset, size);
    }
  for (guint k = 0; k < t->n_texts; k++)
    {
      const MshedDfmTextField *tf = &t->texts[k];
      gsize off = rec + tf->offset;

      if (tf->offset + tf->size > t->stride || merge_range (x, off, tf->size))
        continue;
      unit_conflict (x, MSHED_MERGE_CONFLICT_TEXT, t->table, t->table_name, row, tf->name,
                     text_value (x->b + off, tf->size), text_value (x->m + off, tf->size),
                     text_value (x->t + off, tf->size), off, tf->size);
    }
  for (guint k = 0; k < t->stride; k++)
    if (!mask[k])
      merge_bytes (x, t->table, t->table_name, rec + k, 1);
}

/* A payload of table @t (NULL: bytes only), with @h describing its header record (Res2). */
static void
merge_table (Merge3               *x,
             gsize                 size,
             const MshedDiffTable *h,
             const MshedDiffTable *t)
{
  gsize pos = 0;

  if (t && size >= t->header && t->stride > 0)
    {
      g_autofree guint8 *mask = mshed_diff_table_mask (t);
      if (t->header > 0)
        {
          if (h && h->stride == t->header)
            {
              g_autofree guint8 *hmask = mshed_diff_table_mask (h);

              merge_record (x, h, hmask, 0, 0);
            }
          else
            merge_bytes (x, t->table, t->table_name, 0, t->header);
        }
      pos = t->header;
      for (guint row = 0; pos + t->stride <= size; row++, pos += t->stride)
        merge_record (x, t, mask, pos, row);
    }
  merge_bytes (x, t ? t->table : -1, t ? t->table_name : NULL, pos, size - pos);
}

static gboolean
bytes_equal (const guint8 *a,
             gsize         na,
             const guint8 *b,
             gsize         nb)
{
  return na == nb && (na == 0 || memcmp (a, b, na) == 0);
}

static GByteArray *
byte_array (const guint8 *data,
            gsize         size)
{
  GByteArray *a = g_byte_array_sized_new ((guint) size);

  if (size)
    g_byte_array_append (a, data, (guint) size);
  return a;
}

/* Which side a unit takes (docs/diff.md §5.1): 0 nothing changed, 1 mine, 2 theirs, -1 a
 * conflict. */
static gint
pick_side (const guint8 *const d[3],
           const gsize         n[3])
{
  gboolean mine_same = bytes_equal (d[0], n[0], d[1], n[1]);
  gboolean theirs_same = bytes_equal (d[0], n[0], d[2], n[2]);

  if (mine_same && theirs_same)
    return 0;
  if (mine_same)
    return 2;
  if (theirs_same || bytes_equal (d[1], n[1], d[2], n[2]))
    return 1;
  return -1;
}

/* Sets up @x to merge three equal-size payloads into @op's buffer (a copy of BASE). */
static void
merge3_init (Merge3            *x,
             MshedMerge        *self,
             Op                *op,
             const guint8 *const d[3],
             gsize              size)
{
  op->buffer = byte_array (d[0], size);
  x->merge = self;
  x->op = self->ops->len - 1;
  x->b = d[0];
  x->m = d[1];
  x->t = d[2];
  x->out = op->buffer->data;
}

/* MSH models ----------------------------------------------------------------------------- */

static gboolean
entry_equal_key (gpointer data,
                 guint    i,
                 guint    j)
{
  MshedNres **n = data;
  const MshedNresEntry *a = mshed_nres_peek_entry (n[0], i);
  const MshedNresEntry *b = mshed_nres_peek_entry (n[1], j);

  return a->type_id == b->type_id && mshed_nres_name_compare (a->name, b->name) == 0;
}

/* For each row of BASE, its row in @other (MSHED_DIFF_NO_ROW: gone); @added: rows only there */
static guint *
map_entries (MshedNres *base,
             MshedNres *other,
             GArray    *added)
{
  MshedNres *n[2] = { base, other };
  guint nb = mshed_nres_get_n_entries (base);
  guint *map = g_new (guint, MAX (nb, 1));
  g_autoptr(GArray) pairs = mshed_diff_align (nb, mshed_nres_get_n_entries (other),
                                              entry_equal_key, n, MSHED_DIFF_GAP_PAIR_NONE);

  for (guint i = 0; i < nb; i++)
    map[i] = MSHED_DIFF_NO_ROW;
  for (guint p = 0; p < pairs->len; p++)
    {
      MshedDiffPair pr = g_array_index (pairs, MshedDiffPair, p);

      if (pr.a != MSHED_DIFF_NO_ROW)
        map[pr.a] = pr.b;
      else
        g_array_append_val (added, pr.b);
    }
  return map;
}

static gboolean
entry_same (const MshedNresEntry *a,
            const MshedNresEntry *b)
{
  gsize na = 0, nb = 0;
  const guint8 *da = mshed_nres_entry_get_data (a, &na);
  const guint8 *db = mshed_nres_entry_get_data (b, &nb);

  return a->attr1 == b->attr1 && a->attr2 == b->attr2 && a->attr3 == b->attr3 &&
         bytes_equal (da, na, db, nb);
}

static char *
entry_summary (const MshedNresEntry *e)
{
  if (e == NULL)
    return NULL;
  return g_strdup_printf (_("%" PRIu64 " bytes"), (guint64) mshed_nres_entry_get_size (e));
}

static void
whole_conflict (MshedMerge           *self,
                gint                  res,
                const MshedNresEntry *eb,
                const MshedNresEntry *em,
                const MshedNresEntry *et)
{
  const MshedNresEntry *any = eb ? eb : em;
  g_autofree char *name = mshed_nres_entry_dup_name (any);
  Where w = { any->type_id, name, NULL };
  Op *op = add_op (self, OP_WHOLE);

  op->res = res;
  op->entry_mine = em;
  op->entry_theirs = et;
  add_conflict (self, MSHED_MERGE_CONFLICT_RESOURCE, &w, self->ops->len - 1,
                entry_summary (eb), entry_summary (em), entry_summary (et));
}

static void
take_entry (MshedMerge           *self,
            gint                  res,
            const MshedNresEntry *e)
{
  Op *op = add_op (self, OP_WHOLE);

  op->res = res;
  op->entry_mine = e;
}

static void
merge_names (MshedMerge *self,
             guint       n_nodes)
{
  g_autofree char *res_name = NULL;
  Where w = { 10, NULL, NULL };

  for (guint node = 0; node < n_nodes; node++)
    {
      const guint8 *t[3] = { NULL, NULL, NULL };
      guint32 raw_len[3] = { 0, 0, 0 };
      gsize len[3];
      gint side;
      guint take;
      Op *op;

      for (guint s = 0; s < 3; s++)
        {
          mshed_model_get_name_raw (self->models[s], node, &t[s], &raw_len[s]);
          len[s] = raw_len[s];
        }
      side = pick_side (t, len);
      if (side == 0)
        continue;
      take = side > 0 ? (guint) side : 0;
      op = add_op (self, OP_RENAME);
      op->node = node;
      op->name_mine = mshed_cp1251_to_utf8 (t[take ? take : 1], len[take ? take : 1], NULL);
      op->name_theirs = mshed_cp1251_to_utf8 (t[2], len[2], NULL);
      if (take == 0)
        {
          MshedMergeConflict *c = add_conflict (self, MSHED_MERGE_CONFLICT_TEXT, &w,
                                                self->ops->len - 1,
                                                mshed_cp1251_to_utf8 (t[0], len[0], NULL),
                                                g_strdup (op->name_mine),
                                                g_strdup (op->name_theirs));

          c->table = MSHED_TABLE_NAMES;
          c->table_name = "names";
          c->row = node;
        }
    }
}

static void
merge_attributes (MshedMerge           *self,
                  guint                 res,
                  const MshedNresEntry *e[3])
{
  static const char *const names[] = { "attr1", "attr2", "attr3" };
  g_autofree char *name = mshed_nres_entry_dup_name (e[0]);
  Where w = { e[0]->type_id, name, NULL };

  for (guint k = 0; k < 3; k++)
    {
      guint32 v[3];
      Op *op;

      for (guint s = 0; s < 3; s++)
        v[s] = k == 0 ? e[s]->attr1 : k == 1 ? e[s]->attr2 : e[s]->attr3;
      if (v[1] == v[0] && v[2] == v[0])
        continue;
      op = add_op (self, OP_ATTR);
      op->res = (gint) res;
      op->attr = k + 1;
      op->value_mine = v[1] == v[0] ? v[2] : v[1];
      op->value_theirs = v[2];
      if (v[1] != v[0] && v[2] != v[0] && v[1] != v[2])
        {
          MshedMergeConflict *c =
            add_conflict (self, MSHED_MERGE_CONFLICT_ATTRIBUTE, &w, self->ops->len - 1,
                          g_strdup_printf ("%u", v[0]), g_strdup_printf ("%u", v[1]),
                          g_strdup_printf ("%u", v[2]));

          c->table = MSHED_TABLE_DIRECTORY;
          c->table_name = "dir";
          c->row = res;
          c->field = names[k];
        }
    }
}

static void
merge_msh_payload (MshedMerge           *self,
                   guint                 res,
                   const MshedNresEntry *e[3])
{
  gsize n[3];
  const guint8 *d[3];
  guint32 type = e[0]->type_id;
  g_autofree char *name = mshed_nres_entry_dup_name (e[0]);
  Merge3 x = { 0 };
  MshedDiffTable t, h;
  const MshedTableInfo *info;
  Op *op;

  gint s;

  for (guint k = 0; k < 3; k++)
    d[k] = mshed_nres_entry_get_data (e[k], &n[k]);
  s = pick_side (d, n);
  if (s == 0)
    return;
  if (s > 0)
    {
      op = add_op (self, OP_PAYLOAD);
      op->res = (gint) res;
      op->buffer = byte_array (d[s], n[s]);
      return;
    }
  if (type == 10 && n[0] > 0)
    {
      guint nodes[3];

      for (guint s = 0; s < 3; s++)
        nodes[s] = mshed_model_get_n_rows (self->models[s], MSHED_TABLE_NAMES);
      if (nodes[0] == nodes[1] && nodes[0] == nodes[2] &&
          mshed_model_get_n_rows (self->models[0], MSHED_TABLE_NODES) == nodes[0])
        {
          merge_names (self, nodes[0]);
          return;
        }
    }
  if (n[0] != n[1] || n[0] != n[2] || type == 10)
    {
      whole_conflict (self, (gint) res, e[0], e[1], e[2]);
      return;
    }
  op = add_op (self, OP_PAYLOAD);
  op->res = (gint) res;
  merge3_init (&x, self, op, d, n[0]);
  x.where.res_type = type;
  x.where.res_name = name;
  info = mshed_schema_table_for_type (type);
  if (type == 1)
    {
      guint stride = mshed_model_get_node_stride (self->models[0]);

      t = mshed_diff_msh_table (MSHED_TABLE_NODES, stride);
      merge_table (&x, n[0], NULL, stride > 0 ? &t : NULL);
    }
  else if (info && info->stride > 0)
    {
      t = mshed_diff_msh_table (info->id, 0);
      h = mshed_diff_msh_table (MSHED_TABLE_HEADER, 0);
      merge_table (&x, n[0], type == 2 ? &h : NULL, &t);
    }
  else
    merge_table (&x, n[0], NULL, NULL);
}

/**
 * mshed_merge_models:
 *
 * Plans the merge of @mine and @theirs, two edited copies of @base (docs/diff.md §5).
 *
 * Returns: (transfer full): the plan with its conflicts, all unresolved
 */
MshedMerge *
mshed_merge_models (MshedModel *base,
                    MshedModel *mine,
                    MshedModel *theirs)
{
  MshedMerge *self = merge_new ();
  MshedNres *n[3] = { mshed_model_get_nres (base), mshed_model_get_nres (mine),
                      mshed_model_get_nres (theirs) };
  g_autoptr(GArray) added_m = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) added_t = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree guint *map_m = NULL, *map_t = NULL;
  g_autofree gboolean *t_done = NULL;

  self->models[0] = mshed_model_ref (base);
  self->models[1] = mshed_model_ref (mine);
  self->models[2] = mshed_model_ref (theirs);
  map_m = map_entries (n[0], n[1], added_m);
  map_t = map_entries (n[0], n[2], added_t);
  for (guint i = 0; i < mshed_nres_get_n_entries (n[0]); i++)
    {
      const MshedNresEntry *e[3] = { mshed_nres_peek_entry (n[0], i),
        map_m[i] != MSHED_DIFF_NO_ROW ? mshed_nres_peek_entry (n[1], map_m[i]) : NULL,
        map_t[i] != MSHED_DIFF_NO_ROW ? mshed_nres_peek_entry (n[2], map_t[i]) : NULL };

      if (e[1] == NULL || e[2] == NULL)
        {
          const MshedNresEntry *kept = e[1] ? e[1] : e[2];

          if (kept == NULL || entry_same (e[0], kept))
            take_entry (self, (gint) i, NULL);
          else
            whole_conflict (self, (gint) i, e[0], e[1], e[2]);
          continue;
        }
      merge_msh_payload (self, i, e);
      merge_attributes (self, i, e);
    }
  /* additions: once when both sides added the same, a conflict when they differ */
  t_done = g_new0 (gboolean, added_t->len + 1);
  for (guint k = 0; k < added_m->len; k++)
    {
      const MshedNresEntry *em = mshed_nres_peek_entry (n[1], g_array_index (added_m, guint, k));
      const MshedNresEntry *et = NULL;

      for (guint q = 0; q < added_t->len && et == NULL; q++)
        {
          const MshedNresEntry *c = mshed_nres_peek_entry (n[2],
                                                           g_array_index (added_t, guint, q));

          if (!t_done[q] && c->type_id == em->type_id &&
              mshed_nres_name_compare (c->name, em->name) == 0)
            {
              et = c;
              t_done[q] = TRUE;
            }
        }
      if (et == NULL || entry_same (em, et))
        take_entry (self, -1, em);
      else
        whole_conflict (self, -1, NULL, em, et);
    }
  for (guint q = 0; q < added_t->len; q++)
    if (!t_done[q])
      take_entry (self, -1, mshed_nres_peek_entry (n[2], g_array_index (added_t, guint, q)));
  return self;
}

/* UTF files ------------------------------------------------------------------------------ */

static gboolean
child_names_equal (gpointer data,
                   guint    i,
                   guint    j)
{
  GPtrArray **c = data;

  return mshed_utf_name_compare (mshed_utf_node_get_name (g_ptr_array_index (c[0], i)),
                                 mshed_utf_node_get_name (g_ptr_array_index (c[1], j))) == 0;
}

static MshedUtfNode **
map_children (GPtrArray *base,
              GPtrArray *other,
              GArray    *added)
{
  GPtrArray *c[2] = { base, other };
  MshedUtfNode **map = g_new0 (MshedUtfNode *, base->len + 1);
  g_autoptr(GArray) pairs = mshed_diff_align (base->len, other->len, child_names_equal, c,
                                              MSHED_DIFF_GAP_PAIR_NONE);

  for (guint p = 0; p < pairs->len; p++)
    {
      MshedDiffPair pr = g_array_index (pairs, MshedDiffPair, p);

      if (pr.a == MSHED_DIFF_NO_ROW)
        g_array_append_val (added, pr.b);
      else if (pr.b != MSHED_DIFF_NO_ROW)
        map[pr.a] = g_ptr_array_index (other, pr.b);
    }
  return map;
}

static gboolean
subtree_equal (MshedUtfNode *a,
               MshedUtfNode *b)
{
  MshedUtfNode *ca, *cb;

  if (a == NULL || b == NULL)
    return a == b;
  if (strcmp (mshed_utf_node_get_name (a), mshed_utf_node_get_name (b)) != 0 ||
      mshed_utf_node_is_directory (a) != mshed_utf_node_is_directory (b))
    return FALSE;
  if (!mshed_utf_node_is_directory (a))
    {
      gsize na = 0, nb = 0;
      const guint8 *da = mshed_utf_node_peek_data (a, &na);
      const guint8 *db = mshed_utf_node_peek_data (b, &nb);

      return bytes_equal (da, na, db, nb);
    }
  for (ca = mshed_utf_node_get_first_child (a), cb = mshed_utf_node_get_first_child (b);
       ca && cb; ca = mshed_utf_node_get_next (ca), cb = mshed_utf_node_get_next (cb))
    if (!subtree_equal (ca, cb))
      return FALSE;
  return ca == NULL && cb == NULL;
}

static char *
node_summary (MshedUtfNode *node)
{
  gsize n = 0;

  if (node == NULL)
    return NULL;
  if (mshed_utf_node_is_directory (node))
    return g_strdup_printf (ngettext ("directory, %u entry", "directory, %u entries",
                                      mshed_utf_node_get_n_children (node)),
                            mshed_utf_node_get_n_children (node));
  mshed_utf_node_peek_data (node, &n);
  return g_strdup_printf (_("%" PRIu64 " bytes"), (guint64) n);
}

/* @base NULL: a node both sides added under @parent_path (at @index), differently. */
static void
utf_whole (MshedMerge   *self,
           MshedUtfNode *base,
           MshedUtfNode *mine,
           MshedUtfNode *theirs,
           gboolean      conflict,
           const char   *parent_path,
           guint         index)
{
  Op *op = add_op (self, OP_UTF_WHOLE);
  MshedUtfNode *any = base ? base : mine ? mine : theirs;

  op->path = base ? mshed_utf_node_dup_path (base) : g_strdup (parent_path);
  op->name = base ? NULL : g_strdup (mshed_utf_node_get_name (any));
  op->index = index;
  op->node_mine = mine;
  op->node_theirs = theirs;
  if (conflict)
    {
      g_autofree char *path = mshed_utf_node_dup_path (any);
      Where w = { 0, NULL, path };

      add_conflict (self, MSHED_MERGE_CONFLICT_RESOURCE, &w, self->ops->len - 1,
                    node_summary (base), node_summary (mine), node_summary (theirs));
    }
}

static void
merge_utf_file (MshedMerge   *self,
                MshedUtfNode *nb,
                MshedUtfNode *nm,
                MshedUtfNode *nt,
                gboolean      dfm)
{
  gsize n[3] = { 0, 0, 0 };
  const guint8 *d[3] = { mshed_utf_node_peek_data (nb, &n[0]),
                         mshed_utf_node_peek_data (nm, &n[1]),
                         mshed_utf_node_peek_data (nt, &n[2]) };
  MshedDfmTable table = dfm ? mshed_dfm_schema_table_for_node (nb) : MSHED_DFM_TABLE_NONE;
  const MshedDfmTableInfo *info = table != MSHED_DFM_TABLE_NONE
                                  ? mshed_dfm_schema_get_table (table) : NULL;
  g_autofree char *path = mshed_utf_node_dup_path (nb);
  Merge3 x = { 0 };
  Op *op;

  gint s = pick_side (d, n);

  if (s == 0)
    return;
  if (s > 0)
    {
      op = add_op (self, OP_UTF_DATA);
      op->path = g_steal_pointer (&path);
      op->buffer = byte_array (d[s], n[s]);
      return;
    }
  if (n[0] != n[1] || n[0] != n[2] || (info && info->stride == 0))
    {
      utf_whole (self, nb, nm, nt, TRUE, NULL, 0);
      if (info)
        {
          MshedMergeConflict *c = &g_array_index (self->conflicts, MshedMergeConflict,
                                                  self->conflicts->len - 1);

          c->table = table;
          c->table_name = info->name;
          if (info->stride == 0 && n[0] == n[1] && n[0] == n[2])
            {
              c->kind = MSHED_MERGE_CONFLICT_TEXT;
              g_free (c->base_value);
              g_free (c->mine_value);
              g_free (c->theirs_value);
              c->base_value = text_value (d[0], n[0]);
              c->mine_value = text_value (d[1], n[1]);
              c->theirs_value = text_value (d[2], n[2]);
            }
        }
      return;
    }
  op = add_op (self, OP_UTF_DATA);
  op->path = g_strdup (path);
  merge3_init (&x, self, op, d, n[0]);
  x.where.path = path;
  if (info)
    {
      MshedDiffTable t = mshed_diff_dfm_table (table);

      merge_table (&x, n[0], NULL, &t);
    }
  else
    merge_table (&x, n[0], NULL, NULL);
}

static void
merge_utf_dir (MshedMerge   *self,
               MshedUtfNode *b,
               MshedUtfNode *m,
               MshedUtfNode *t,
               gboolean      dfm)
{
  g_autoptr(GPtrArray) cb = mshed_diff_children (b);
  g_autoptr(GPtrArray) cm = mshed_diff_children (m);
  g_autoptr(GPtrArray) ct = mshed_diff_children (t);
  g_autoptr(GArray) added_m = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) added_t = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree MshedUtfNode **map_m = map_children (cb, cm, added_m);
  g_autofree MshedUtfNode **map_t = map_children (cb, ct, added_t);
  g_autofree gboolean *t_done = g_new0 (gboolean, added_t->len + 1);
  g_autofree char *path = mshed_utf_node_dup_path (b);

  for (guint i = 0; i < cb->len; i++)
    {
      MshedUtfNode *nb = g_ptr_array_index (cb, i), *nm = map_m[i], *nt = map_t[i];
      gboolean dir_b = mshed_utf_node_is_directory (nb);

      if (nm == NULL || nt == NULL)
        {
          MshedUtfNode *kept = nm ? nm : nt;

          utf_whole (self, nb, NULL, NULL, FALSE, NULL, 0);
          if (kept && !subtree_equal (nb, kept))
            {
              Op *op = &g_array_index (self->ops, Op, self->ops->len - 1);
              g_autofree char *p = mshed_utf_node_dup_path (nb);
              Where w = { 0, NULL, p };

              op->node_mine = nm;
              op->node_theirs = nt;
              add_conflict (self, MSHED_MERGE_CONFLICT_RESOURCE, &w, self->ops->len - 1,
                            node_summary (nb), node_summary (nm), node_summary (nt));
            }
          continue;
        }
      if (mshed_utf_node_is_directory (nm) != dir_b || mshed_utf_node_is_directory (nt) != dir_b)
        {
          if (subtree_equal (nb, nm) || subtree_equal (nb, nt) || subtree_equal (nm, nt))
            {
              MshedUtfNode *take = subtree_equal (nb, nm) ? nt : nm;

              if (!subtree_equal (nb, take))
                utf_whole (self, nb, take, NULL, FALSE, NULL, 0);
            }
          else
            utf_whole (self, nb, nm, nt, TRUE, NULL, 0);
          continue;
        }
      if (dir_b)
        merge_utf_dir (self, nb, nm, nt, dfm);
      else
        merge_utf_file (self, nb, nm, nt, dfm);
    }
  for (guint k = 0; k < added_m->len; k++)
    {
      guint im = g_array_index (added_m, guint, k);
      MshedUtfNode *nm = g_ptr_array_index (cm, im), *nt = NULL;

      for (guint q = 0; q < added_t->len && nt == NULL; q++)
        {
          MshedUtfNode *c = g_ptr_array_index (ct, g_array_index (added_t, guint, q));

          if (!t_done[q] && mshed_utf_name_compare (mshed_utf_node_get_name (c),
                                                    mshed_utf_node_get_name (nm)) == 0)
            {
              nt = c;
              t_done[q] = TRUE;
            }
        }
      if (nt == NULL || subtree_equal (nm, nt))
        utf_whole (self, NULL, nm, NULL, FALSE, path, im);
      else
        utf_whole (self, NULL, nm, nt, TRUE, path, im);
    }
  for (guint q = 0; q < added_t->len; q++)
    if (!t_done[q])
      {
        guint it = g_array_index (added_t, guint, q);

        utf_whole (self, NULL, g_ptr_array_index (ct, it), NULL, FALSE, path, it);
      }
}

/**
 * mshed_merge_utf:
 *
 * Plans the merge of two edited copies of a UTF file; files of deformable models (when BASE
 * is one) merge field by field with the DFM schema.
 *
 * Returns: (transfer full): the plan with its conflicts, all unresolved
 */
MshedMerge *
mshed_merge_utf (MshedUtf *base,
                 MshedUtf *mine,
                 MshedUtf *theirs)
{
  MshedMerge *self = merge_new ();

  self->trees[0] = mshed_utf_ref (base);
  self->trees[1] = mshed_utf_ref (mine);
  self->trees[2] = mshed_utf_ref (theirs);
  merge_utf_dir (self, mshed_utf_get_root (base), mshed_utf_get_root (mine),
                 mshed_utf_get_root (theirs), mshed_utf_looks_like_dfm (base));
  return self;
}

/**
 * mshed_merge_documents:
 *
 * Returns: (transfer full) (nullable): the plan, NULL when the documents hold different
 *   containers
 */
MshedMerge *
mshed_merge_documents (MshedDocument  *base,
                       MshedDocument  *mine,
                       MshedDocument  *theirs,
                       GError        **error)
{
  MshedContainerKind kind = mshed_document_get_container (base);

  if (mshed_document_get_container (mine) != kind ||
      mshed_document_get_container (theirs) != kind)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("Cannot merge a model with a UTF file"));
      return NULL;
    }
  if (mshed_document_get_model (base))
    return mshed_merge_models (mshed_document_get_model (base), mshed_document_get_model (mine),
                               mshed_document_get_model (theirs));
  return mshed_merge_utf (mshed_document_get_utf (base), mshed_document_get_utf (mine),
                          mshed_document_get_utf (theirs));
}

/* Applying ------------------------------------------------------------------------------- */

static gboolean
choose_mine (MshedMerge *self,
             const Op   *op)
{
  return op->conflict < 0 ||
         g_array_index (self->conflicts, MshedMergeConflict, op->conflict).choice
         != MSHED_MERGE_THEIRS;
}

static gboolean
apply_msh_op (MshedMerge     *self,
              MshedDocument  *doc,
              Op             *op,
              GArray         *removals,
              GError        **error)
{
  gboolean mine = choose_mine (self, op);
  MshedNres *nres = mshed_model_get_nres (mshed_document_get_model (doc));

  switch (op->kind)
    {
    case OP_PAYLOAD:
      {
        g_autoptr(GBytes) bytes = g_bytes_new (op->buffer->data, op->buffer->len);

        return mshed_document_set_resource_payload (doc, (guint) op->res, bytes, error);
      }
    case OP_ATTR:
      {
        static const char *const names[] = { "attr1", "attr2", "attr3" };
        const MshedNresEntry *now = mshed_nres_peek_entry (nres, (guint) op->res);
        guint32 want = mine ? op->value_mine : op->value_theirs;
        guint32 have = op->attr == 1 ? now->attr1 : op->attr == 2 ? now->attr2 : now->attr3;

        if (want == have)
          return TRUE;
        return mshed_document_set_field (doc, MSHED_TABLE_DIRECTORY, (guint) op->res,
                                         names[op->attr - 1], want, error);
      }
    case OP_RENAME:
      return mshed_document_rename_node (doc, op->node, mine ? op->name_mine : op->name_theirs,
                                         error);
    case OP_WHOLE:
    default:
      {
        const MshedNresEntry *e = mine ? op->entry_mine : op->entry_theirs;
        g_autoptr(GBytes) payload = e ? mshed_nres_entry_dup_bytes (e) : NULL;
        g_autofree char *name = e ? mshed_nres_entry_dup_name (e) : NULL;
        guint res;

        if (op->res >= 0 && e == NULL)
          {
            res = (guint) op->res;
            g_array_append_val (removals, res);
            return TRUE;
          }
        if (e == NULL)
          return TRUE;
        if (op->res < 0)
          return mshed_document_add_resource (doc, G_MAXUINT, e->type_id, name, e->attr1,
                                              e->attr2, e->attr3, payload, error) >= 0;
        return mshed_document_set_resource_payload (doc, (guint) op->res, payload, error) &&
               mshed_copy_attributes (doc, (guint) op->res, e, error);
      }
    }
}

static gboolean
lookup_node (MshedDocument  *doc,
             const char     *path,
             MshedUtfNode  **out,
             GError        **error)
{
  MshedUtf *utf = mshed_document_get_utf (doc);

  *out = strcmp (path, MSHED_UTF_ROOT_NAME) == 0 ? mshed_utf_get_root (utf)
                                                : mshed_utf_lookup (utf, path);
  if (*out == NULL)
    g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                 _("Merge: the node %s is missing from the result"), path);
  return *out != NULL;
}

static gboolean
apply_utf_op (MshedMerge     *self,
              MshedDocument  *doc,
              Op             *op,
              GPtrArray      *removals,
              GError        **error)
{
  gboolean mine = choose_mine (self, op);
  MshedUtfNode *node, *src = mine ? op->node_mine : op->node_theirs;

  if (!lookup_node (doc, op->path, &node, error))
    return FALSE;
  if (op->kind == OP_UTF_DATA)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (op->buffer->data, op->buffer->len);

      return mshed_document_utf_set_data (doc, node, bytes, error);
    }
  if (op->name)  /* a node BASE lacks */
    return src == NULL || mshed_copy_utf_subtree (doc, node, op->index, src, error);
  if (src == NULL)
    {
      g_ptr_array_add (removals, g_strdup (op->path));
      return TRUE;
    }
  if (!mshed_utf_node_is_directory (src) && !mshed_utf_node_is_directory (node))
    {
      g_autoptr(GBytes) data = g_bytes_ref (mshed_utf_node_get_data (src));

      return mshed_document_utf_set_data (doc, node, data, error);
    }
  {
    MshedUtfNode *parent = mshed_utf_node_get_parent (node);
    guint index = mshed_utf_node_get_index (node);

    return mshed_document_utf_remove (doc, node, error) &&
           mshed_copy_utf_subtree (doc, parent, index, src, error);
  }
}

/**
 * mshed_merge_apply:
 *
 * Returns: (transfer full) (nullable): a document on a copy of BASE holding the merged model,
 *   the whole merge one undo step
 */
MshedDocument *
mshed_merge_apply (MshedMerge  *self,
                   GError     **error)
{
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(GArray) removals = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GPtrArray) utf_removals = g_ptr_array_new_with_free_func (g_free);
  guint unresolved = mshed_merge_get_n_unresolved (self);
  gboolean ok = TRUE;

  if (unresolved > 0)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   ngettext ("%u conflict is not resolved", "%u conflicts are not resolved",
                             unresolved), unresolved);
      return NULL;
    }
  /* the chosen side's bytes of every conflict inside a merged buffer */
  for (guint i = 0; i < self->priv->len; i++)
    {
      const ConflictPriv *p = &g_array_index (self->priv, ConflictPriv, i);
      const MshedMergeConflict *c = &g_array_index (self->conflicts, MshedMergeConflict, i);
      Op *op = &g_array_index (self->ops, Op, p->op);

      if (p->mine == NULL)
        continue;
      memcpy (op->buffer->data + p->offset,
              (c->choice == MSHED_MERGE_THEIRS ? p->theirs : p->mine) + p->offset, p->length);
    }
  if (self->models[0])
    {
      g_autoptr(GBytes) bytes = mshed_model_serialize (self->models[0]);
      g_autoptr(MshedModel) copy = mshed_model_new_from_bytes (bytes, MSHED_MODE_TOLERANT,
                                                               NULL, error);

      if (copy == NULL)
        return NULL;
      doc = mshed_document_new_for_model (copy, MSHED_MODE_TOLERANT);
    }
  else
    {
      g_autoptr(MshedUtf) copy = mshed_utf_copy (self->trees[0]);

      doc = mshed_document_new_for_utf (copy, MSHED_MODE_TOLERANT);
    }
  mshed_document_begin_group (doc, _("Merge"));
  for (guint i = 0; i < self->ops->len && ok; i++)
    {
      Op *op = &g_array_index (self->ops, Op, i);

      if (self->models[0])
        ok = apply_msh_op (self, doc, op, removals, error);
      else
        ok = apply_utf_op (self, doc, op, utf_removals, error);
    }
  for (guint i = removals->len; ok && i-- > 0;)  /* rows in increasing order: remove from the end */
    ok = mshed_document_remove_resource (doc, g_array_index (removals, guint, i), error);
  for (guint i = utf_removals->len; ok && i-- > 0;)
    {
      MshedUtfNode *node;

      ok = lookup_node (doc, g_ptr_array_index (utf_removals, i), &node, error) &&
           mshed_document_utf_remove (doc, node, error);
    }
  mshed_document_end_group (doc);
  if (!ok)
    return NULL;
  return g_steal_pointer (&doc);
}

/* Choosing again in a built result ------------------------------------------------------ */

/* Where BASE resource @res is in a result mshed_merge_apply built: the resources the plan
 * removes come out of the directory, the ones it adds go to its end. */
static gboolean
result_resource (MshedMerge     *self,
                 MshedDocument  *result,
                 gint            res,
                 guint          *out,
                 GError        **error)
{
  MshedNres *nres = mshed_model_get_nres (mshed_document_get_model (result));
  const MshedNresEntry *base = mshed_nres_peek_entry (mshed_model_get_nres (self->models[0]),
                                                      (guint) res);
  guint index = (guint) res;

  for (guint i = 0; i < self->ops->len; i++)
    {
      const Op *op = &g_array_index (self->ops, Op, i);

      if (op->kind == OP_WHOLE && op->res >= 0 && op->res < res &&
          (choose_mine (self, op) ? op->entry_mine : op->entry_theirs) == NULL)
        index--;
    }
  if (index >= mshed_nres_get_n_entries (nres) ||
      mshed_nres_peek_entry (nres, index)->type_id != base->type_id)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("Merge: resource %d is missing from the result"), res);
      return FALSE;
    }
  *out = index;
  return TRUE;
}

/* Writes @choice's value of conflict @index into @result; FALSE with @error when the unit is
 * not there (or the conflict is a whole resource: MSHED_MODEL_ERROR_UNSUPPORTED). */
static gboolean
write_choice (MshedMerge        *self,
              MshedDocument     *result,
              guint              index,
              MshedMergeChoice   choice,
              GError           **error)
{
  const ConflictPriv *p = &g_array_index (self->priv, ConflictPriv, index);
  const Op *op = &g_array_index (self->ops, Op, p->op);
  gboolean mine = choice != MSHED_MERGE_THEIRS;
  guint res;

  if (p->mine != NULL)
    {
      g_autoptr(GBytes) bytes = g_bytes_new ((mine ? p->mine : p->theirs) + p->offset,
                                             p->length);
      MshedUtfNode *node;
      const guint8 *now;
      gsize size = 0;

      if (op->kind == OP_PAYLOAD)
        return result_resource (self, result, op->res, &res, error) &&
               mshed_document_replace_bytes (result, res, p->offset, p->length, bytes, error);
      if (!lookup_node (result, op->path, &node, error))
        return FALSE;
      now = mshed_utf_node_peek_data (node, &size);
      if (mshed_utf_node_is_directory (node) || size < p->offset + p->length)
        {
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                       _("Merge: the file %s of the result is too short"), op->path);
          return FALSE;
        }
      {
        g_autofree guint8 *copy = g_memdup2 (now, size);
        g_autoptr(GBytes) data = NULL;

        memcpy (copy + p->offset, g_bytes_get_data (bytes, NULL), p->length);
        data = g_bytes_new_take (g_steal_pointer (&copy), size);
        return mshed_document_utf_set_data (result, node, data, error);
      }
    }
  if (op->kind == OP_ATTR)
    {
      static const char *const names[] = { "attr1", "attr2", "attr3" };

      return result_resource (self, result, op->res, &res, error) &&
             mshed_document_set_field (result, MSHED_TABLE_DIRECTORY, res, names[op->attr - 1],
                                       mine ? op->value_mine : op->value_theirs, error);
    }
  if (op->kind == OP_RENAME)
    return mshed_document_rename_node (result, op->node,
                                       mine ? op->name_mine : op->name_theirs, error);
  g_set_error_literal (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                       _("A whole resource or node cannot be chosen again in the result: "
                         "build the result again"));
  return FALSE;
}

gboolean
mshed_merge_can_choose_in_result (const MshedMerge *self,
                                  guint             index)
{
  const ConflictPriv *p;
  const Op *op;

  g_return_val_if_fail (self != NULL && index < self->conflicts->len, FALSE);

  p = &g_array_index (self->priv, ConflictPriv, index);
  op = &g_array_index (self->ops, Op, p->op);
  return p->mine != NULL || op->kind == OP_ATTR || op->kind == OP_RENAME;
}

gboolean
mshed_merge_choose_in_result (MshedMerge        *self,
                              MshedDocument     *result,
                              guint              index,
                              MshedMergeChoice   choice,
                              GError           **error)
{
  g_autoptr(GArray) previous = NULL;
  g_autofree char *label = NULL;
  guint from = index, to = index + 1;
  gboolean ok = TRUE, changed = FALSE;

  g_return_val_if_fail (self != NULL && MSHED_IS_DOCUMENT (result), FALSE);
  g_return_val_if_fail (choice != MSHED_MERGE_UNRESOLVED, FALSE);
  g_return_val_if_fail (index == G_MAXUINT || index < self->conflicts->len, FALSE);

  if (index == G_MAXUINT)
    {
      from = 0;
      to = self->conflicts->len;
      label = g_strdup (choice == MSHED_MERGE_MINE ? _("All Mine") : _("All Theirs"));
    }
  else
    {
      g_autofree char *where =
        mshed_merge_conflict_format_where (&g_array_index (self->conflicts, MshedMergeConflict,
                                                           index));

      /* translators: an undo step, e.g. "Choose Theirs: slots[2].unk30" */
      label = g_strdup_printf (choice == MSHED_MERGE_MINE ? _("Choose Mine: %s")
                                                          : _("Choose Theirs: %s"), where);
    }
  for (guint i = from; i < to; i++)
    if (g_array_index (self->conflicts, MshedMergeConflict, i).choice != choice &&
        !mshed_merge_can_choose_in_result (self, i))
      {
        g_set_error_literal (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                             _("A whole resource or node cannot be chosen again in the "
                               "result: build the result again"));
        return FALSE;
      }
  previous = g_array_sized_new (FALSE, FALSE, sizeof (MshedMergeChoice), self->conflicts->len);
  for (guint i = 0; i < self->conflicts->len; i++)
    g_array_append_val (previous, g_array_index (self->conflicts, MshedMergeConflict, i).choice);
  mshed_document_begin_group (result, label);
  for (guint i = from; i < to && ok; i++)
    {
      MshedMergeConflict *c = &g_array_index (self->conflicts, MshedMergeConflict, i);

      if (c->choice == choice)
        continue;
      /* the plan first: a change signal of the write reads it back */
      c->choice = choice;
      ok = write_choice (self, result, i, choice, error);
      changed = TRUE;
    }
  mshed_document_end_group (result);
  if (!ok)
    {
      /* nothing half-done stays */
      if (changed && mshed_document_can_undo (result))
        mshed_document_undo (result);
      for (guint i = 0; i < self->conflicts->len; i++)
        g_array_index (self->conflicts, MshedMergeConflict, i).choice =
          g_array_index (previous, MshedMergeChoice, i);
    }
  return ok;
}

MshedMergeChoice
mshed_merge_read_result_choice (const MshedMerge *self,
                                MshedDocument    *result,
                                guint             index)
{
  const ConflictPriv *p;
  const Op *op;

  g_return_val_if_fail (self != NULL && index < self->conflicts->len, MSHED_MERGE_UNRESOLVED);
  g_return_val_if_fail (MSHED_IS_DOCUMENT (result), MSHED_MERGE_UNRESOLVED);

  p = &g_array_index (self->priv, ConflictPriv, index);
  op = &g_array_index (self->ops, Op, p->op);
  if (p->mine != NULL)
    {
      const guint8 *now = NULL;
      gsize size = 0;
      guint res;

      if (op->kind == OP_PAYLOAD)
        {
          if (!result_resource ((MshedMerge *) self, result, op->res, &res, NULL))
            return MSHED_MERGE_UNRESOLVED;
          now = mshed_nres_entry_get_data (mshed_nres_peek_entry (
                                             mshed_model_get_nres (
                                               mshed_document_get_model (result)), res),
                                           &size);
        }
      else
        {
          MshedUtfNode *node = NULL;

          if (!lookup_node (result, op->path, &node, NULL) || mshed_utf_node_is_directory (node))
            return MSHED_MERGE_UNRESOLVED;
          now = mshed_utf_node_peek_data (node, &size);
        }
      if (size < p->offset + p->length)
        return MSHED_MERGE_UNRESOLVED;
      if (memcmp (now + p->offset, p->mine + p->offset, p->length) == 0)
        return MSHED_MERGE_MINE;
      if (memcmp (now + p->offset, p->theirs + p->offset, p->length) == 0)
        return MSHED_MERGE_THEIRS;
      return MSHED_MERGE_UNRESOLVED;
    }
  if (op->kind == OP_ATTR)
    {
      const MshedNresEntry *e;
      guint res;
      guint32 have;

      if (!result_resource ((MshedMerge *) self, result, op->res, &res, NULL))
        return MSHED_MERGE_UNRESOLVED;
      e = mshed_nres_peek_entry (mshed_model_get_nres (mshed_document_get_model (result)), res);
      have = op->attr == 1 ? e->attr1 : op->attr == 2 ? e->attr2 : e->attr3;
      return have == op->value_mine ? MSHED_MERGE_MINE
             : have == op->value_theirs ? MSHED_MERGE_THEIRS : MSHED_MERGE_UNRESOLVED;
    }
  if (op->kind == OP_RENAME)
    {
      g_autofree char *name = mshed_model_dup_name (mshed_document_get_model (result), op->node);

      return g_strcmp0 (name, op->name_mine) == 0 ? MSHED_MERGE_MINE
             : g_strcmp0 (name, op->name_theirs) == 0 ? MSHED_MERGE_THEIRS
             : MSHED_MERGE_UNRESOLVED;
    }
  return g_array_index (self->conflicts, MshedMergeConflict, index).choice;
}

/**
 * mshed_merge_conflict_format:
 *
 * Returns: (transfer full): one line naming the unit and its three values
 */
char *
mshed_merge_conflict_format_where (const MshedMergeConflict *c)
{
  GString *s = g_string_new (NULL);

  if (c->path)
    g_string_append (s, c->path);
  else if (c->table_name && c->kind != MSHED_MERGE_CONFLICT_RESOURCE)
    g_string_append (s, c->table_name);
  else
    g_string_append_printf (s, "Res%" G_GUINT32_FORMAT " “%s”", c->res_type,
                            c->res_name ? c->res_name : "");
  if (c->row != G_MAXUINT)
    g_string_append_printf (s, "[%u]", c->row);
  if (c->field)
    g_string_append_printf (s, ".%s", c->field);
  if (c->kind == MSHED_MERGE_CONFLICT_BYTES)
    g_string_append_printf (s, " @0x%" G_GINT64_MODIFIER "X", c->offset);
  return g_string_free (s, FALSE);
}

char *
mshed_merge_conflict_format (const MshedMergeConflict *c)
{
  g_autofree char *where = mshed_merge_conflict_format_where (c);
  const char *absent = _("absent");
  g_autofree char *values = g_strdup_printf (_(": base %s, mine %s, theirs %s"),
                                             c->base_value ? c->base_value : absent,
                                             c->mine_value ? c->mine_value : absent,
                                             c->theirs_value ? c->theirs_value : absent);

  return g_strconcat (where, values, NULL);
}
