/* mshed-schema.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-schema"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-error.h"
#include "mshed-schema.h"

#define U   MSHED_FIELD_FLAG_UNKNOWN
#define S   MSHED_FIELD_FLAG_SENTINEL
#define H   MSHED_FIELD_FLAG_HEX
#define D   MSHED_FIELD_FLAG_DERIVED
#define NO  MSHED_TABLE_NONE

static const MshedField node_fields[] = {
  { "hdr0", 0, MSHED_FIELD_U16, U | H, NO, 0, N_("Node flags (meaning unknown)") },
  { "hdr1", 2, MSHED_FIELD_U16, S, MSHED_TABLE_NODES, 0, N_("Parent node (none: root)") },
  { "hdr2", 4, MSHED_FIELD_U16, S, MSHED_TABLE_MAP, 0,
    N_("Start of the frame map in Res19 (none: static)") },
  { "hdr3", 6, MSHED_FIELD_U16, S, MSHED_TABLE_KEYS, 0, N_("Fallback key in Res8") },
  { "slot0", 8, MSHED_FIELD_U16, S, MSHED_TABLE_SLOTS, 0, N_("Slot for LOD 0, group 0") },
  { "slot1", 10, MSHED_FIELD_U16, S, MSHED_TABLE_SLOTS, 0, N_("Slot for LOD 0, group 1") },
  { "slot2", 12, MSHED_FIELD_U16, S, MSHED_TABLE_SLOTS, 0, N_("Slot for LOD 0, group 2") },
  { "slot3", 14, MSHED_FIELD_U16, S, MSHED_TABLE_SLOTS, 0, N_("Slot for LOD 0, group 3") },
  { "slot4", 16, MSHED_FIELD_U16, S, MSHED_TABLE_SLOTS, 0, N_("Slot for LOD 0, group 4") },
  { "slot5", 18, MSHED_FIELD_U16, S, MSHED_TABLE_SLOTS, 0, N_("Slot for LOD 1, group 0") },
  { "slot6", 20, MSHED_FIELD_U16, S, MSHED_TABLE_SLOTS, 0, N_("Slot for LOD 1, group 1") },
  { "slot7", 22, MSHED_FIELD_U16, S, MSHED_TABLE_SLOTS, 0, N_("Slot for LOD 1, group 2") },
  { "slot8", 24, MSHED_FIELD_U16, S, MSHED_TABLE_SLOTS, 0, N_("Slot for LOD 1, group 3") },
  { "slot9", 26, MSHED_FIELD_U16, S, MSHED_TABLE_SLOTS, 0, N_("Slot for LOD 1, group 4") },
  { "slot10", 28, MSHED_FIELD_U16, S, MSHED_TABLE_SLOTS, 0, N_("Slot for LOD 2, group 0") },
  { "slot11", 30, MSHED_FIELD_U16, S, MSHED_TABLE_SLOTS, 0, N_("Slot for LOD 2, group 1") },
  { "slot12", 32, MSHED_FIELD_U16, S, MSHED_TABLE_SLOTS, 0, N_("Slot for LOD 2, group 2") },
  { "slot13", 34, MSHED_FIELD_U16, S, MSHED_TABLE_SLOTS, 0, N_("Slot for LOD 2, group 3") },
  { "slot14", 36, MSHED_FIELD_U16, S, MSHED_TABLE_SLOTS, 0, N_("Slot for LOD 2, group 4") },
};

#define F(name, off, blurb) { name, off, MSHED_FIELD_F32, D, NO, 0, blurb }

static const MshedField header_fields[] = {
  F ("hull0X", 0, N_("Hull point 0, x")), F ("hull0Y", 4, N_("Hull point 0, y")),
  F ("hull0Z", 8, N_("Hull point 0, z")), F ("hull1X", 12, N_("Hull point 1, x")),
  F ("hull1Y", 16, N_("Hull point 1, y")), F ("hull1Z", 20, N_("Hull point 1, z")),
  F ("hull2X", 24, N_("Hull point 2, x")), F ("hull2Y", 28, N_("Hull point 2, y")),
  F ("hull2Z", 32, N_("Hull point 2, z")), F ("hull3X", 36, N_("Hull point 3, x")),
  F ("hull3Y", 40, N_("Hull point 3, y")), F ("hull3Z", 44, N_("Hull point 3, z")),
  F ("hull4X", 48, N_("Hull point 4, x")), F ("hull4Y", 52, N_("Hull point 4, y")),
  F ("hull4Z", 56, N_("Hull point 4, z")), F ("hull5X", 60, N_("Hull point 5, x")),
  F ("hull5Y", 64, N_("Hull point 5, y")), F ("hull5Z", 68, N_("Hull point 5, z")),
  F ("hull6X", 72, N_("Hull point 6, x")), F ("hull6Y", 76, N_("Hull point 6, y")),
  F ("hull6Z", 80, N_("Hull point 6, z")), F ("hull7X", 84, N_("Hull point 7, x")),
  F ("hull7Y", 88, N_("Hull point 7, y")), F ("hull7Z", 92, N_("Hull point 7, z")),
  F ("sphereX", 96, N_("Bounding sphere centre, x")),
  F ("sphereY", 100, N_("Bounding sphere centre, y")),
  F ("sphereZ", 104, N_("Bounding sphere centre, z")),
  F ("sphereR", 108, N_("Bounding sphere radius")),
  F ("capAX", 112, N_("Capsule point A, x")), F ("capAY", 116, N_("Capsule point A, y")),
  F ("capAZ", 120, N_("Capsule point A, z")), F ("capBX", 124, N_("Capsule point B, x")),
  F ("capBY", 128, N_("Capsule point B, y")), F ("capBZ", 132, N_("Capsule point B, z")),
  F ("capR", 136, N_("Capsule radius")),
};

static const MshedField slot_fields[] = {
  { "triStart", 0, MSHED_FIELD_U16, 0, MSHED_TABLE_TRIS, 0,
    N_("First triangle descriptor in Res7") },
  { "triCount", 2, MSHED_FIELD_U16, 0, NO, 0, N_("Number of triangle descriptors") },
  { "batchStart", 4, MSHED_FIELD_U16, 0, MSHED_TABLE_BATCHES, 0, N_("First batch in Res13") },
  { "batchCount", 6, MSHED_FIELD_U16, 0, NO, 0, N_("Number of batches") },
  F ("aabbMinX", 8, N_("Bounding box minimum, x")),
  F ("aabbMinY", 12, N_("Bounding box minimum, y")),
  F ("aabbMinZ", 16, N_("Bounding box minimum, z")),
  F ("aabbMaxX", 20, N_("Bounding box maximum, x")),
  F ("aabbMaxY", 24, N_("Bounding box maximum, y")),
  F ("aabbMaxZ", 28, N_("Bounding box maximum, z")),
  F ("sphereX", 32, N_("Bounding sphere centre, x")),
  F ("sphereY", 36, N_("Bounding sphere centre, y")),
  F ("sphereZ", 40, N_("Bounding sphere centre, z")),
  F ("sphereR", 44, N_("Bounding sphere radius")),
  { "unk30", 48, MSHED_FIELD_U32, U | H, NO, 0, N_("Unknown word at +0x30") },
  { "unk34", 52, MSHED_FIELD_U32, U | H, NO, 0, N_("Unknown word at +0x34") },
  { "unk38", 56, MSHED_FIELD_U32, U | H, NO, 0, N_("Unknown word at +0x38") },
  { "unk3C", 60, MSHED_FIELD_U32, U | H, NO, 0, N_("Unknown word at +0x3C") },
  { "unk40", 64, MSHED_FIELD_U32, U | H, NO, 0, N_("Unknown word at +0x40") },
};

static const MshedField position_fields[] = {
  { "x", 0, MSHED_FIELD_F32, 0, NO, 0, N_("Position x") },
  { "y", 4, MSHED_FIELD_F32, 0, NO, 0, N_("Position y") },
  { "z", 8, MSHED_FIELD_F32, 0, NO, 0, N_("Position z") },
};

static const MshedField normal_fields[] = {
  { "nx", 0, MSHED_FIELD_I8, 0, NO, 127.0, N_("Normal x (÷127)") },
  { "ny", 1, MSHED_FIELD_I8, 0, NO, 127.0, N_("Normal y (÷127)") },
  { "nz", 2, MSHED_FIELD_I8, 0, NO, 127.0, N_("Normal z (÷127)") },
  { "nw", 3, MSHED_FIELD_I8, U, NO, 0, N_("Fourth normal byte (meaning unknown)") },
};

static const MshedField uv_fields[] = {
  { "u", 0, MSHED_FIELD_I16, 0, NO, 1024.0, N_("Texture u (÷1024)") },
  { "v", 2, MSHED_FIELD_I16, 0, NO, 1024.0, N_("Texture v (÷1024)") },
};

static const MshedField index_fields[] = {
  { "index", 0, MSHED_FIELD_U16, 0, MSHED_TABLE_POSITIONS, 0,
    N_("Vertex, relative to the batch's baseVertex") },
};

static const MshedField tri_fields[] = {
  { "flags", 0, MSHED_FIELD_U16, U | H, NO, 0, N_("Triangle flags (meaning unknown)") },
  { "link0", 2, MSHED_FIELD_U16, S, MSHED_TABLE_TRIS, 0, N_("Neighbour descriptor 0") },
  { "link1", 4, MSHED_FIELD_U16, S, MSHED_TABLE_TRIS, 0, N_("Neighbour descriptor 1") },
  { "link2", 6, MSHED_FIELD_U16, S, MSHED_TABLE_TRIS, 0, N_("Neighbour descriptor 2") },
  { "nX", 8, MSHED_FIELD_I16, D, NO, 32767.0, N_("Face normal x (÷32767)") },
  { "nY", 10, MSHED_FIELD_I16, D, NO, 32767.0, N_("Face normal y (÷32767)") },
  { "nZ", 12, MSHED_FIELD_I16, D, NO, 32767.0, N_("Face normal z (÷32767)") },
  { "selPacked", 14, MSHED_FIELD_U16, H, NO, 0, N_("Three 2-bit selectors (bits 6–15 unknown)") },
};

static const MshedField key_fields[] = {
  { "posX", 0, MSHED_FIELD_F32, 0, NO, 0, N_("Translation x") },
  { "posY", 4, MSHED_FIELD_F32, 0, NO, 0, N_("Translation y") },
  { "posZ", 8, MSHED_FIELD_F32, 0, NO, 0, N_("Translation z") },
  { "time", 12, MSHED_FIELD_F32, 0, NO, 0, N_("Key time in frames") },
  { "qx", 16, MSHED_FIELD_I16, 0, NO, 32767.0, N_("Rotation x (÷32767)") },
  { "qy", 18, MSHED_FIELD_I16, 0, NO, 32767.0, N_("Rotation y (÷32767)") },
  { "qz", 20, MSHED_FIELD_I16, 0, NO, 32767.0, N_("Rotation z (÷32767)") },
  { "qw", 22, MSHED_FIELD_I16, 0, NO, 32767.0, N_("Rotation w (÷32767)") },
};

static const MshedField batch_fields[] = {
  { "flags", 0, MSHED_FIELD_U16, U | H, NO, 0, N_("Batch flags (meaning unknown)") },
  { "materialIndex", 2, MSHED_FIELD_U16, 0, NO, 0, N_("Row of the model's WEAR table") },
  { "unk4", 4, MSHED_FIELD_U16, U | H, NO, 0, N_("Unknown word at +4") },
  { "unk6", 6, MSHED_FIELD_U16, U | H, NO, 0, N_("Unknown word at +6") },
  { "indexCount", 8, MSHED_FIELD_U16, 0, NO, 0, N_("Number of Res6 indices") },
  { "indexStart", 10, MSHED_FIELD_U32, 0, MSHED_TABLE_INDICES, 0, N_("First Res6 index") },
  { "unk14", 14, MSHED_FIELD_U16, U | H, NO, 0, N_("Unknown word at +14") },
  { "baseVertex", 16, MSHED_FIELD_U32, 0, MSHED_TABLE_POSITIONS, 0,
    N_("Added to every index of the batch") },
};

static const MshedField extra15_fields[] = {
  { "w0", 0, MSHED_FIELD_U32, U | H, NO, 0, N_("Unknown word 0") },
  { "w1", 4, MSHED_FIELD_U32, U | H, NO, 0, N_("Unknown word 1") },
};

static const MshedField extra16_fields[] = {
  { "a", 0, MSHED_FIELD_U32, U | H, NO, 0, N_("Sub-stream A (meaning unknown)") },
  { "b", 4, MSHED_FIELD_U32, U | H, NO, 0, N_("Sub-stream B (meaning unknown)") },
};

static const MshedField extra18_fields[] = {
  { "value", 0, MSHED_FIELD_U32, U | H, NO, 0, N_("Unknown per-vertex word") },
};

static const MshedField map_fields[] = {
  { "key", 0, MSHED_FIELD_U16, 0, MSHED_TABLE_KEYS, 0, N_("Key index for this frame") },
};

static const MshedField directory_fields[] = {
  { "type", 0, MSHED_FIELD_U32, 0, NO, 0, N_("Resource type") },
  { "attr1", 4, MSHED_FIELD_U32, 0, NO, 0, N_("Attribute 1 (usually the record count)") },
  { "attr2", 8, MSHED_FIELD_U32, 0, NO, 0, N_("Attribute 2") },
  { "size", 12, MSHED_FIELD_U32, 0, NO, 0, N_("Payload size in bytes") },
  { "attr3", 16, MSHED_FIELD_U32, 0, NO, 0, N_("Attribute 3 (usually the record size)") },
  { "data_offset", 56, MSHED_FIELD_U32, 0, NO, 0, N_("Payload offset") },
  { "sort_index", 60, MSHED_FIELD_U32, 0, NO, 0, N_("Name-order permutation entry") },
};

#undef F

#define T(id, name, title, type, hdr, stride, fields) \
  { id, name, title, type, hdr, stride, fields, G_N_ELEMENTS (fields) }

static const MshedTableInfo tables[MSHED_N_TABLES] = {
  T (MSHED_TABLE_NODES, "nodes", N_("Nodes"), 1, 0, 38, node_fields),
  T (MSHED_TABLE_HEADER, "header", N_("Header"), 2, 0, 140, header_fields),
  T (MSHED_TABLE_SLOTS, "slots", N_("Slots"), 2, 140, 68, slot_fields),
  T (MSHED_TABLE_POSITIONS, "vertices", N_("Vertices"), 3, 0, 12, position_fields),
  T (MSHED_TABLE_NORMALS, "normals", N_("Normals"), 4, 0, 4, normal_fields),
  T (MSHED_TABLE_UVS, "uvs", N_("UVs"), 5, 0, 4, uv_fields),
  T (MSHED_TABLE_INDICES, "indices", N_("Indices"), 6, 0, 2, index_fields),
  T (MSHED_TABLE_TRIS, "tris", N_("Triangles"), 7, 0, 16, tri_fields),
  T (MSHED_TABLE_KEYS, "keys", N_("Animation keys"), 8, 0, 24, key_fields),
  { MSHED_TABLE_NAMES, "names", N_("Names"), 10, 0, 0, NULL, 0 },
  T (MSHED_TABLE_BATCHES, "batches", N_("Batches"), 13, 0, 20, batch_fields),
  T (MSHED_TABLE_EXTRA15, "res15", N_("Res15 stream"), 15, 0, 8, extra15_fields),
  T (MSHED_TABLE_EXTRA16, "res16", N_("Res16 stream"), 16, 0, 8, extra16_fields),
  T (MSHED_TABLE_EXTRA18, "res18", N_("Res18 stream"), 18, 0, 4, extra18_fields),
  T (MSHED_TABLE_MAP, "map", N_("Animation map"), 19, 0, 2, map_fields),
  T (MSHED_TABLE_DIRECTORY, "dir", N_("NRes directory"), 0, 16, 64, directory_fields),
};

#undef T

const MshedTableInfo *
mshed_schema_get_table (MshedTableId id)
{
  g_return_val_if_fail (id >= 0 && id < MSHED_N_TABLES, NULL);
  return &tables[id];
}

const MshedTableInfo *
mshed_schema_find_table (const char *name)
{
  for (guint i = 0; i < MSHED_N_TABLES; i++)
    if (g_ascii_strcasecmp (tables[i].name, name) == 0)
      return &tables[i];
  return NULL;
}

/* The table a resource type holds; for Res2 the slot table (the header is separate). */
const MshedTableInfo *
mshed_schema_table_for_type (guint32 res_type)
{
  if (res_type == 2)
    return &tables[MSHED_TABLE_SLOTS];
  for (guint i = 0; i < MSHED_N_TABLES; i++)
    if (tables[i].res_type == res_type && tables[i].id != MSHED_TABLE_DIRECTORY)
      return &tables[i];
  return NULL;
}

const MshedField *
mshed_schema_find_field (const MshedTableInfo *table,
                         const char           *name)
{
  for (guint i = 0; i < table->n_fields; i++)
    if (g_ascii_strcasecmp (table->fields[i].name, name) == 0)
      return &table->fields[i];
  return NULL;
}

guint
mshed_field_type_size (MshedFieldType type)
{
  switch (type)
    {
    case MSHED_FIELD_U8:
    case MSHED_FIELD_I8:
      return 1;
    case MSHED_FIELD_U16:
    case MSHED_FIELD_I16:
      return 2;
    case MSHED_FIELD_U32:
    case MSHED_FIELD_I32:
    case MSHED_FIELD_F32:
    default:
      return 4;
    }
}

/* A float's NaN travels in a double with its sign and payload bits moved across unchanged:
 * the hardware conversion would set the quiet bit of a signalling NaN, and writing the value
 * back would then change the file. Every other float converts exactly. */
static double
f32_to_double (guint32 bits)
{
  guint64 wide;
  double d;
  float f;

  if ((bits & 0x7F800000u) != 0x7F800000u || (bits & 0x007FFFFFu) == 0)
    {
      memcpy (&f, &bits, sizeof f);
      return f;
    }
  wide = (guint64) (bits >> 31) << 63 | G_GUINT64_CONSTANT (0x7FF) << 52 |
         (guint64) (bits & 0x007FFFFFu) << 29;
  memcpy (&d, &wide, sizeof d);
  return d;
}

static guint32
double_to_f32 (double value)
{
  guint64 wide;
  guint32 bits;
  float f;

  if (!isnan (value))
    {
      f = (float) value;
      memcpy (&bits, &f, sizeof bits);
      return bits;
    }
  memcpy (&wide, &value, sizeof wide);
  bits = (guint32) (wide >> 63) << 31 | 0x7F800000u | (guint32) ((wide >> 29) & 0x007FFFFFu);
  if ((bits & 0x007FFFFFu) == 0)
    bits |= 0x00400000u;  /* a double NaN whose payload lies below a float's: stay a NaN */
  return bits;
}

double
mshed_field_read (const MshedField *field,
                  const guint8     *record)
{
  const guint8 *p = record + field->offset;

  switch (field->type)
    {
    case MSHED_FIELD_U8:
      return p[0];
    case MSHED_FIELD_I8:
      return (gint8) p[0];
    case MSHED_FIELD_U16:
      return mshed_read_u16 (p);
    case MSHED_FIELD_I16:
      return mshed_read_i16 (p);
    case MSHED_FIELD_U32:
      return mshed_read_u32 (p);
    case MSHED_FIELD_I32:
      return mshed_read_i32 (p);
    case MSHED_FIELD_F32:
    default:
      return f32_to_double (mshed_read_u32 (p));
    }
}

void
mshed_field_write (const MshedField *field,
                   guint8           *record,
                   double            value)
{
  guint8 *p = record + field->offset;

  switch (field->type)
    {
    case MSHED_FIELD_U8:
    case MSHED_FIELD_I8:
      p[0] = (guint8) (gint64) value;
      break;
    case MSHED_FIELD_U16:
    case MSHED_FIELD_I16:
      mshed_write_u16 (p, (guint16) (gint64) value);
      break;
    case MSHED_FIELD_U32:
    case MSHED_FIELD_I32:
      mshed_write_u32 (p, (guint32) (gint64) value);
      break;
    case MSHED_FIELD_F32:
    default:
      mshed_write_u32 (p, double_to_f32 (value));
      break;
    }
}

static void
field_range (MshedFieldType type,
             gint64        *min,
             gint64        *max)
{
  switch (type)
    {
    case MSHED_FIELD_U8:  *min = 0; *max = G_MAXUINT8; break;
    case MSHED_FIELD_I8:  *min = G_MININT8; *max = G_MAXINT8; break;
    case MSHED_FIELD_U16: *min = 0; *max = G_MAXUINT16; break;
    case MSHED_FIELD_I16: *min = G_MININT16; *max = G_MAXINT16; break;
    case MSHED_FIELD_U32: *min = 0; *max = G_MAXUINT32; break;
    case MSHED_FIELD_I32:
    case MSHED_FIELD_F32:
    default:              *min = G_MININT32; *max = G_MAXINT32; break;
    }
}

/**
 * mshed_field_parse:
 * @text: what the user typed: a decimal or 0x-hexadecimal integer, "none" for the 0xFFFF
 *   sentinel, or a finite decimal number for float fields
 * @value: (out): the raw value to store
 *
 * Returns: FALSE with a translated explanation when the text is not a value of the field
 */
gboolean
mshed_field_parse (const MshedField *field,
                   const char       *text,
                   double           *value,
                   GError          **error)
{
  g_autofree char *s = g_strstrip (g_strdup (text));
  char *end = NULL;

  if (field->type == MSHED_FIELD_F32)
    {
      double v = g_ascii_strtod (s, &end);

      if (*s == '\0' || end == NULL || *end != '\0')
        {
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                       _("Field %s: “%s” is not a number (use a dot for decimals, e.g. 1.5)"),
                       field->name, text);
          return FALSE;
        }
      if (!isfinite (v) || !isfinite ((float) v))
        {
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                       _("Field %s: “%s” is not a finite 32-bit float"), field->name, text);
          return FALSE;
        }
      *value = (float) v;
      return TRUE;
    }

  if ((field->flags & MSHED_FIELD_FLAG_SENTINEL) &&
      (g_ascii_strcasecmp (s, "none") == 0 || g_strcmp0 (s, "-") == 0))
    {
      *value = MSHED_NONE;
      return TRUE;
    }

  {
    gint64 min, max, v;
    gboolean hex = g_ascii_strncasecmp (s, "0x", 2) == 0;
    gboolean neg = s[0] == '-';

    field_range (field->type, &min, &max);
    errno = 0;
    if (hex)
      v = (gint64) g_ascii_strtoull (s + 2, &end, 16);
    else
      v = g_ascii_strtoll (s, &end, 10);
    if (*s == '\0' || (hex && s[2] == '\0') || end == NULL || *end != '\0' || errno != 0)
      {
        if (field->flags & MSHED_FIELD_FLAG_SENTINEL)
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                       _("Field %s: “%s” is not an integer (decimal, 0x… hexadecimal, or "
                         "“none”)"), field->name, text);
        else
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                       _("Field %s: “%s” is not an integer (decimal or 0x… hexadecimal)"),
                       field->name, text);
        return FALSE;
      }
    /* hexadecimal input gives the raw bit pattern, also for signed fields */
    if (hex && min < 0 && v > max && v <= (max - min))
      v += min * 2;
    if (v < min || v > max || (neg && hex))
      {
        g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                     _("Field %s: %s is out of range %" PRId64 "…%" PRId64),
                     field->name, text, min, max);
        return FALSE;
      }
    *value = (double) v;
    return TRUE;
  }
}

/**
 * mshed_field_format:
 *
 * Returns: (transfer full): the raw value as the grids show it ("none", 0x-hex for flags)
 */
char *
mshed_field_format (const MshedField *field,
                    const guint8     *record)
{
  double v = mshed_field_read (field, record);

  if (field->type == MSHED_FIELD_F32)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.9g", v));
    }
  if ((field->flags & MSHED_FIELD_FLAG_SENTINEL) && v == MSHED_NONE)
    return g_strdup ("none");
  if (field->flags & MSHED_FIELD_FLAG_HEX)
    {
      guint width = mshed_field_type_size (field->type) * 2;
      guint64 bits = (guint64) (gint64) v;

      if (width < 16)
        bits &= (G_GUINT64_CONSTANT (1) << (width * 4)) - 1;
      return g_strdup_printf ("0x%0*" PRIX64, (int) width, bits);
    }
  return g_strdup_printf ("%" PRId64, (gint64) v);
}
