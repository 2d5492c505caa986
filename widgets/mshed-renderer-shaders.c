/* mshed-renderer-shaders.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The renderer's GLSL 3.30 sources and the programs built from them: the mesh (optionally
 * with its wireframe in the same pass), vertex normals, picking, lines and selected points.
 * Every program that reads a_pos skins it first when u_skinned is set (a DFM skinned on the
 * GPU), so the picture, the picking ids, the normals and the selection agree.
 */
#define G_LOG_DOMAIN "mshed-render"

#include "config.h"

#include <epoxy/gl.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "mshed-renderer.h"
#include "mshed-renderer-private.h"

/* Shaders -------------------------------------------------------------------------------- */

/* docs/dfm.md §6.3 as mshed_dfm_pose_skin_point computes it (docs/conventions.md "Posing a
 * DFM"): p' = Σ w_k · S_k · p and n' = the normalised Σ w_k · rot(S_k) · n (n kept when that
 * sum vanishes), a non-finite p' parked at the origin. Matrix j is texels 3j..3j+2 of u_skin,
 * one row each: (m0, m1, m2, translation). Influences of weight 0 (the unused ones) are
 * skipped; the sums run in the CPU's order. */
#define SKIN_VS \
  "layout(location = 4) in uvec4 a_joints;\n" \
  "layout(location = 5) in vec4 a_weights;\n" \
  "uniform int u_skinned;\n" \
  "uniform samplerBuffer u_skin;\n" \
  "vec3 skinned_pos;\n" \
  "vec3 skinned_nrm;\n" \
  "void skin (vec3 p, vec3 n) {\n" \
  "  skinned_pos = p;\n" \
  "  skinned_nrm = n;\n" \
  "  if (u_skinned == 0) return;\n" \
  "  vec3 sp = vec3 (0.0), sn = vec3 (0.0);\n" \
  "  for (int k = 0; k < 4; k++) {\n" \
  "    float w = a_weights[k];\n" \
  "    if (w == 0.0) continue;\n" \
  "    int j = 3 * int (a_joints[k]);\n" \
  "    vec4 r0 = texelFetch (u_skin, j), r1 = texelFetch (u_skin, j + 1);\n" \
  "    vec4 r2 = texelFetch (u_skin, j + 2);\n" \
  "    sp += w * vec3 (r0.x * p.x + r0.y * p.y + r0.z * p.z + r0.w,\n" \
  "                    r1.x * p.x + r1.y * p.y + r1.z * p.z + r1.w,\n" \
  "                    r2.x * p.x + r2.y * p.y + r2.z * p.z + r2.w);\n" \
  "    sn += w * vec3 (r0.x * n.x + r0.y * n.y + r0.z * n.z,\n" \
  "                    r1.x * n.x + r1.y * n.y + r1.z * n.z,\n" \
  "                    r2.x * n.x + r2.y * n.y + r2.z * n.z);\n" \
  "  }\n" \
  "  bool finite = !any (isnan (sp)) && !any (isinf (sp));\n" \
  "  skinned_pos = finite ? sp : vec3 (0.0);\n" \
  "  float len = length (sn);\n" \
  "  if (!isnan (len) && !isinf (len) && len > 1e-12) skinned_nrm = sn / len;\n" \
  "}\n"

static const char mesh_vs[] =
  "#version 330 core\n"
  "layout(location = 0) in vec3 a_pos;\n"
  "layout(location = 1) in vec3 a_nrm;\n"
  "layout(location = 2) in vec2 a_uv;\n"
  SKIN_VS
  "uniform mat4 u_vp;\n"
  "uniform mat4 u_model;\n"
  "uniform mat3 u_normal_mat;\n"
  "out vec3 v_world;\n"
  "out vec3 v_nrm;\n"
  "out vec2 v_uv;\n"
  "void main () {\n"
  "  skin (a_pos, a_nrm);\n"
  "  vec4 w = u_model * vec4 (skinned_pos, 1.0);\n"
  "  v_world = w.xyz;\n"
  "  v_nrm = u_normal_mat * skinned_nrm;\n"
  "  v_uv = a_uv;\n"
  "  gl_Position = u_vp * w;\n"
  "}\n";

#define MESH_FS_BODY \
  "uniform vec4 u_color;\n" \
  "uniform int u_mode;\n" \
  "uniform vec3 u_eye;\n" \
  "out vec4 frag;\n" \
  "vec4 shade () {\n" \
  "  if (u_mode == 2) return u_color;\n" \
  "  vec3 n = v_nrm;\n" \
  "  if (dot (n, n) < 1e-8)\n"   /* no decoded normal: the face's */ \
  "    n = cross (dFdx (v_world), dFdy (v_world));\n" \
  "  float len = length (n);\n" \
  "  n = len > 0.0 ? n / len : vec3 (0.0, 0.0, 1.0);\n" \
  "  vec3 l = normalize (u_eye - v_world);\n" \
  "  float d = abs (dot (n, l));\n"  /* two-sided headlight: MSH winding is undocumented */ \
  "  vec3 base = u_color.rgb;\n" \
  "  if (u_mode == 3)\n"   /* heat: blue (0) to red (1) through green */ \
  "    base = clamp (vec3 (2.0 * v_uv.x - 0.5, 1.0 - abs (2.0 * v_uv.x - 1.0),\n" \
  "                        1.5 - 2.0 * v_uv.x), 0.0, 1.0);\n" \
  "  if (u_mode >= 4)\n"   /* diff marks: only here, changed, else ghosted */ \
  "    base = v_uv.y > 0.001 ? (u_mode == 4 ? vec3 (0.90, 0.16, 0.12)\n" \
  "                                         : vec3 (0.18, 0.75, 0.26))\n" \
  "         : v_uv.x > 0.001 ? vec3 (1.0, 0.52, 0.0) : vec3 (0.62, 0.63, 0.66);\n" \
  "  if (u_mode == 1) {\n" \
  "    float c = mod (floor (v_uv.x * 8.0) + floor (v_uv.y * 8.0), 2.0);\n" \
  "    base *= mix (0.3, 1.0, c);\n" \
  "  }\n" \
  "  return vec4 (base * (0.28 + 0.72 * d), u_color.a);\n" \
  "}\n"

static const char mesh_wire_fs[] =
  "#version 330 core\n"
  "in vec3 f_world;\n"
  "in vec3 f_nrm;\n"
  "in vec2 f_uv;\n"
  "noperspective in vec3 f_bary;\n"
  "#define v_world f_world\n"
  "#define v_nrm f_nrm\n"
  "#define v_uv f_uv\n"
  "uniform vec4 u_wire;\n"
  MESH_FS_BODY
  "void main () {\n"
  "  vec3 w = fwidth (f_bary);\n"
  "  vec3 a = smoothstep (vec3 (0.0), w * 1.2, f_bary);\n"
  "  float edge = 1.0 - min (min (a.x, a.y), a.z);\n"
  "  vec4 c = shade ();\n"
  "  frag = vec4 (mix (c.rgb, u_wire.rgb, edge * u_wire.a), c.a);\n"
  "}\n";

static const char mesh_fs[] =
  "#version 330 core\n"
  "in vec3 v_world;\n"
  "in vec3 v_nrm;\n"
  "in vec2 v_uv;\n"
  MESH_FS_BODY
  "void main () { frag = shade (); }\n";

/* The wireframe on top of the shading in one pass: each fragment knows its distance to the
 * triangle's edges (barycentrics) in pixels. Much cheaper on llvmpipe than a second
 * glPolygonMode (GL_LINE) pass. */
static const char wire_gs[] =
  "#version 330 core\n"
  "layout(triangles) in;\n"
  "layout(triangle_strip, max_vertices = 3) out;\n"
  "in vec3 v_world[];\n"
  "in vec3 v_nrm[];\n"
  "in vec2 v_uv[];\n"
  "out vec3 f_world;\n"
  "out vec3 f_nrm;\n"
  "out vec2 f_uv;\n"
  "noperspective out vec3 f_bary;\n"
  "void main () {\n"
  "  for (int i = 0; i < 3; i++) {\n"
  "    gl_Position = gl_in[i].gl_Position;\n"
  "    gl_PrimitiveID = gl_PrimitiveIDIn;\n"
  "    f_world = v_world[i];\n"
  "    f_nrm = v_nrm[i];\n"
  "    f_uv = v_uv[i];\n"
  "    f_bary = vec3 (i == 0, i == 1, i == 2);\n"
  "    EmitVertex ();\n"
  "  }\n"
  "  EndPrimitive ();\n"
  "}\n";

static const char normals_vs[] =
  "#version 330 core\n"
  "layout(location = 0) in vec3 a_pos;\n"
  "layout(location = 1) in vec3 a_nrm;\n"
  SKIN_VS
  "uniform mat4 u_model;\n"
  "uniform mat3 u_normal_mat;\n"
  "out vec3 g_pos;\n"
  "out vec3 g_nrm;\n"
  "void main () {\n"
  "  skin (a_pos, a_nrm);\n"
  "  g_pos = (u_model * vec4 (skinned_pos, 1.0)).xyz;\n"
  "  g_nrm = u_normal_mat * skinned_nrm;\n"
  "  gl_Position = vec4 (g_pos, 1.0);\n"
  "}\n";

static const char normals_gs[] =
  "#version 330 core\n"
  "layout(triangles) in;\n"
  "layout(line_strip, max_vertices = 6) out;\n"
  "in vec3 g_pos[];\n"
  "in vec3 g_nrm[];\n"
  "uniform mat4 u_vp;\n"
  "uniform float u_length;\n"
  "void main () {\n"
  "  for (int i = 0; i < 3; i++) {\n"
  "    float len = length (g_nrm[i]);\n"
  "    if (len <= 0.0) continue;\n"
  "    gl_Position = u_vp * vec4 (g_pos[i], 1.0);\n"
  "    EmitVertex ();\n"
  "    gl_Position = u_vp * vec4 (g_pos[i] + g_nrm[i] / len * u_length, 1.0);\n"
  "    EmitVertex ();\n"
  "    EndPrimitive ();\n"
  "  }\n"
  "}\n";

static const char color_fs[] =
  "#version 330 core\n"
  "uniform vec4 u_color;\n"
  "out vec4 frag;\n"
  "void main () { frag = u_color; }\n";

static const char pick_vs[] =
  "#version 330 core\n"
  "layout(location = 0) in vec3 a_pos;\n"
  SKIN_VS
  "uniform mat4 u_vp;\n"
  "uniform mat4 u_model;\n"
  "void main () {\n"
  "  skin (a_pos, vec3 (0.0));\n"
  "  gl_Position = u_vp * (u_model * vec4 (skinned_pos, 1.0));\n"
  "}\n";

static const char pick_fs[] =
  "#version 330 core\n"
  "uniform uint u_item;\n"
  "out uvec2 frag;\n"
  "void main () { frag = uvec2 (u_item, uint (gl_PrimitiveID)); }\n";

static const char line_vs[] =
  "#version 330 core\n"
  "layout(location = 0) in vec3 a_pos;\n"
  "layout(location = 1) in vec4 a_color;\n"
  "uniform mat4 u_vp;\n"
  "out vec4 v_color;\n"
  "void main () { v_color = a_color; gl_Position = u_vp * vec4 (a_pos, 1.0); }\n";

static const char line_fs[] =
  "#version 330 core\n"
  "in vec4 v_color;\n"
  "out vec4 frag;\n"
  "void main () { frag = v_color; }\n";

static const char points_vs[] =
  "#version 330 core\n"
  "layout(location = 0) in vec3 a_pos;\n"
  "layout(location = 3) in float a_sel;\n"
  SKIN_VS
  "uniform mat4 u_vp;\n"
  "uniform mat4 u_model;\n"
  "void main () {\n"
  "  gl_PointSize = 7.0;\n"
  "  skin (a_pos, vec3 (0.0));\n"
  "  gl_Position = a_sel > 0.5 ? u_vp * (u_model * vec4 (skinned_pos, 1.0))"
  " : vec4 (2.0, 2.0, 2.0, 1.0);\n"
  "}\n";

/* Programs ------------------------------------------------------------------------------- */

static GLuint
compile_shader (GLenum       kind,
                const char  *source,
                const char  *name,
                GError     **error)
{
  GLuint shader = glCreateShader (kind);
  GLint ok = GL_FALSE;

  glShaderSource (shader, 1, &source, NULL);
  glCompileShader (shader);
  glGetShaderiv (shader, GL_COMPILE_STATUS, &ok);
  if (!ok)
    {
      GLint len = 0;
      g_autofree char *log = NULL;

      glGetShaderiv (shader, GL_INFO_LOG_LENGTH, &len);
      log = g_malloc0 (MAX (len, 1));
      glGetShaderInfoLog (shader, MAX (len, 1), NULL, log);
      g_set_error (error, MSHED_RENDER_ERROR, MSHED_RENDER_ERROR_SHADER,
                   _("Shader “%s” does not compile: %s"), name, log);
      glDeleteShader (shader);
      return 0;
    }
  return shader;
}

static gboolean
build_program (Program     *prog,
               const char  *name,
               const char  *vs,
               const char  *gs,
               const char  *fs,
               GError     **error)
{
  GLuint shaders[3] = { 0, 0, 0 };
  GLint ok = GL_FALSE;
  guint n = 0;

  memset (prog, 0, sizeof *prog);
  if (!(shaders[n++] = compile_shader (GL_VERTEX_SHADER, vs, name, error)))
    goto fail;
  if (gs && !(shaders[n++] = compile_shader (GL_GEOMETRY_SHADER, gs, name, error)))
    goto fail;
  if (!(shaders[n++] = compile_shader (GL_FRAGMENT_SHADER, fs, name, error)))
    goto fail;

  prog->program = glCreateProgram ();
  for (guint i = 0; i < n; i++)
    glAttachShader (prog->program, shaders[i]);
  glLinkProgram (prog->program);
  for (guint i = 0; i < n; i++)
    {
      glDetachShader (prog->program, shaders[i]);
      glDeleteShader (shaders[i]);
    }
  glGetProgramiv (prog->program, GL_LINK_STATUS, &ok);
  if (!ok)
    {
      GLint len = 0;
      g_autofree char *log = NULL;

      glGetProgramiv (prog->program, GL_INFO_LOG_LENGTH, &len);
      log = g_malloc0 (MAX (len, 1));
      glGetProgramInfoLog (prog->program, MAX (len, 1), NULL, log);
      g_set_error (error, MSHED_RENDER_ERROR, MSHED_RENDER_ERROR_SHADER,
                   _("Shader program “%s” does not link: %s"), name, log);
      glDeleteProgram (prog->program);
      prog->program = 0;
      return FALSE;
    }
  prog->u_vp = glGetUniformLocation (prog->program, "u_vp");
  prog->u_model = glGetUniformLocation (prog->program, "u_model");
  prog->u_normal_mat = glGetUniformLocation (prog->program, "u_normal_mat");
  prog->u_color = glGetUniformLocation (prog->program, "u_color");
  prog->u_mode = glGetUniformLocation (prog->program, "u_mode");
  prog->u_eye = glGetUniformLocation (prog->program, "u_eye");
  prog->u_item = glGetUniformLocation (prog->program, "u_item");
  prog->u_length = glGetUniformLocation (prog->program, "u_length");
  prog->u_wire = glGetUniformLocation (prog->program, "u_wire");
  prog->u_skinned = glGetUniformLocation (prog->program, "u_skinned");
  if (prog->u_skinned >= 0)
    {
      /* the matrices are always on texture unit 0; off until a DFM skins on the GPU */
      glUseProgram (prog->program);
      glUniform1i (glGetUniformLocation (prog->program, "u_skin"), 0);
      glUniform1i (prog->u_skinned, 0);
      glUseProgram (0);
    }
  return TRUE;

fail:
  for (guint i = 0; i < n; i++)
    if (shaders[i])
      glDeleteShader (shaders[i]);
  return FALSE;
}

static void
delete_program (Program *prog)
{
  if (prog->program)
    glDeleteProgram (prog->program);
  prog->program = 0;
}

gboolean
_mshed_renderer_build_programs (MshedRenderer  *self,
                                GError        **error)
{
  if (!build_program (&self->mesh, "mesh", mesh_vs, NULL, mesh_fs, error) ||
      !build_program (&self->mesh_wire, "mesh+wire", mesh_vs, wire_gs, mesh_wire_fs, error) ||
      !build_program (&self->normals, "normals", normals_vs, normals_gs, color_fs, error) ||
      !build_program (&self->pick, "pick", pick_vs, NULL, pick_fs, error) ||
      !build_program (&self->lineprog, "lines", line_vs, NULL, line_fs, error) ||
      !build_program (&self->points, "points", points_vs, NULL, color_fs, error))
    {
      _mshed_renderer_delete_programs (self);
      return FALSE;
    }
  return TRUE;
}

void
_mshed_renderer_delete_programs (MshedRenderer *self)
{
  delete_program (&self->mesh);
  delete_program (&self->mesh_wire);
  delete_program (&self->normals);
  delete_program (&self->pick);
  delete_program (&self->lineprog);
  delete_program (&self->points);
}
