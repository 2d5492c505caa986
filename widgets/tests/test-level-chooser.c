/* test-level-chooser.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The DFM level chooser of the compare and merge windows: the level of a node path
 * (hand-written paths), which tables follow it, and the levels offered for generated
 * deformable models with 4 and 6 levels (the most of them, hidden with fewer than two, the
 * level kept or clamped, "level" notified once per change, a choice in the drop-down).
 */
#include "config.h"

#include "mshed-dfm-generator.h"
#include "mshed-level-chooser.h"
#include "widget-test-util.h"

static void
test_path_level (void)
{
  g_assert_cmpuint (mshed_level_chooser_path_level ("\\MultiLevel\\Mesh1\\Geometry\\Points"), ==,
                    1);
  g_assert_cmpuint (mshed_level_chooser_path_level ("\\MultiLevel\\Mesh12"), ==, 12);
  g_assert_cmpuint (mshed_level_chooser_path_level ("\\MultiLevel\\Mesh0\\Face_groups"), ==, 0);
  g_assert_cmpuint (mshed_level_chooser_path_level ("\\MultiLevel\\Mesh"), ==, G_MAXUINT);
  g_assert_cmpuint (mshed_level_chooser_path_level ("\\MultiLevel\\Mesh1x\\Geometry"), ==,
                    G_MAXUINT);
  g_assert_cmpuint (mshed_level_chooser_path_level ("\\MultiLevel\\Mesh4294967296\\Geometry"),
                    ==, G_MAXUINT);
  g_assert_cmpuint (mshed_level_chooser_path_level ("\\Cmpnd\\Cons\\Fix"), ==, G_MAXUINT);
  g_assert_cmpuint (mshed_level_chooser_path_level (NULL), ==, G_MAXUINT);

  g_assert_true (mshed_level_chooser_table_has_level (MSHED_DFM_TABLE_POINTS));
  g_assert_true (mshed_level_chooser_table_has_level (MSHED_DFM_TABLE_TRISTRIP));
  g_assert_false (mshed_level_chooser_table_has_level (MSHED_DFM_TABLE_BONE_TO_ROOT));
  g_assert_false (mshed_level_chooser_table_has_level (MSHED_DFM_TABLE_CONS_FIX));
}

static MshedDocument *
dfm_document (guint n_levels)
{
  MshedDfmGenParams params;
  g_autoptr(MshedUtf) utf = NULL;

  mshed_dfm_gen_params_init (&params, MSHED_DFM_GEN_HAND, 3);
  params.n_levels = n_levels;
  params.n_points = 40;
  utf = mshed_dfm_generate (&params);
  return mshed_document_new_for_utf (utf, MSHED_MODE_TOLERANT);
}

static void
count_cb (GObject    *object,
          GParamSpec *pspec,
          guint      *count)
{
  (*count)++;
}

static void
test_documents (void)
{
  g_autoptr(MshedDocument) four = dfm_document (4);
  g_autoptr(MshedDocument) six = dfm_document (6);
  MshedDocument *docs[] = { four, NULL, six };
  GtkWidget *chooser;
  MshedLevelChooser *c;
  GtkDropDown *dropdown;
  guint notified = 0;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }
  chooser = g_object_ref_sink (mshed_level_chooser_new ());
  c = MSHED_LEVEL_CHOOSER (chooser);
  dropdown = GTK_DROP_DOWN (gtk_widget_get_first_child (chooser));
  g_signal_connect (chooser, "notify::level", G_CALLBACK (count_cb), &notified);
  g_assert_cmpuint (mshed_level_chooser_get_n_levels (c), ==, 0);
  g_assert_false (gtk_widget_get_visible (chooser));

  /* the most levels of the deformable models given */
  mshed_level_chooser_set_documents (c, docs, 3);
  g_assert_cmpuint (mshed_level_chooser_get_n_levels (c), ==, 6);
  g_assert_true (gtk_widget_get_visible (chooser));
  {
    g_autoptr(GtkStringObject) name = g_list_model_get_item (gtk_drop_down_get_model (dropdown),
                                                            5);

    g_assert_cmpstr (gtk_string_object_get_string (name), ==, "Mesh5");
  }
  g_assert_true (mshed_level_chooser_set_level (c, 5));
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 5);
  g_assert_true (mshed_level_chooser_set_level (c, 5));  /* the same: no notification */
  g_assert_cmpuint (notified, ==, 1);
  g_assert_false (mshed_level_chooser_set_level (c, 6));
  g_assert_cmpuint (mshed_level_chooser_get_level (c), ==, 5);

  /* fewer levels: the last one offered */
  mshed_level_chooser_set_documents (c, docs, 1);
  g_assert_cmpuint (mshed_level_chooser_get_n_levels (c), ==, 4);
  g_assert_cmpuint (mshed_level_chooser_get_level (c), ==, 3);
  g_assert_cmpuint (notified, ==, 2);
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 3);

  /* a choice in the drop-down */
  gtk_drop_down_set_selected (dropdown, 1);
  g_assert_cmpuint (mshed_level_chooser_get_level (c), ==, 1);
  g_assert_cmpuint (notified, ==, 3);

  /* no deformable model: nothing offered, hidden */
  mshed_level_chooser_set_documents (c, docs + 1, 1);
  g_assert_cmpuint (mshed_level_chooser_get_n_levels (c), ==, 0);
  g_assert_false (gtk_widget_get_visible (chooser));
  g_object_unref (chooser);
}

int
main (int   argc,
      char *argv[])
{
  widget_test_init (&argc, &argv);

  g_test_add_func ("/widgets/level-chooser/path-level", test_path_level);
  g_test_add_func ("/widgets/level-chooser/documents", test_documents);
  return g_test_run ();
}
