/* mshed-offscreen.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-render"

#include "config.h"

#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "mshed-offscreen.h"
#include "mshed-renderer.h"

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif
#ifndef EGL_PLATFORM_DEVICE_EXT
#define EGL_PLATFORM_DEVICE_EXT 0x313F
#endif

struct _MshedOffscreen {
  EGLDisplay display;
  EGLContext context;
  int        width;
  int        height;
  int        samples;
  GLuint     fbo;          /* drawn into */
  GLuint     color;
  GLuint     depth;
  GLuint     resolve_fbo;  /* single-sampled copy when samples > 0 */
  GLuint     resolve_color;
  char      *renderer;
};

/* The display is opened once and stays initialised until the process exits (never
 * eglTerminate): terminating it unloads the driver (Mesa's swrast_dri.so), which the next
 * offscreen would load again, and the driver's one-time allocations, referenced only from its
 * own data, would then be reported by LeakSanitizer as leaks that no suppression can name
 * (their module is gone). Kept loaded, they are reachable and no leak at all. */
static EGLDisplay shared_display = EGL_NO_DISPLAY;
static EGLint shared_major, shared_minor;

static gboolean
has_word (const char *list,
          const char *word)
{
  gsize len = strlen (word);
  const char *p = list;

  while (p && (p = strstr (p, word)) != NULL)
    {
      if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
        return TRUE;
      p += len;
    }
  return FALSE;
}

/* Mesa's surfaceless platform first; else the first EGL device that initialises
 * (EGL_EXT_platform_device: NVIDIA's headless drivers, Mesa's software device).
 * MSHED_EGL_PLATFORM=device skips the first. */
static EGLDisplay
open_display (EGLint *major,
              EGLint *minor)
{
  const char *client_ext = eglQueryString (EGL_NO_DISPLAY, EGL_EXTENSIONS);
  gboolean force_device = g_strcmp0 (g_getenv ("MSHED_EGL_PLATFORM"), "device") == 0;
  EGLDisplay display;

  if (client_ext == NULL || !has_word (client_ext, "EGL_EXT_platform_base"))
    return EGL_NO_DISPLAY;
  if (!force_device && has_word (client_ext, "EGL_MESA_platform_surfaceless"))
    {
      display = eglGetPlatformDisplayEXT (EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
      if (display != EGL_NO_DISPLAY && eglInitialize (display, major, minor))
        return display;
    }
  if (has_word (client_ext, "EGL_EXT_platform_device") &&
      (has_word (client_ext, "EGL_EXT_device_enumeration") ||
       has_word (client_ext, "EGL_EXT_device_base")))
    {
      EGLDeviceEXT devices[16];
      EGLint n = 0;

      if (eglQueryDevicesEXT (G_N_ELEMENTS (devices), devices, &n))
        for (EGLint i = 0; i < n; i++)
          {
            display = eglGetPlatformDisplayEXT (EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
            if (display != EGL_NO_DISPLAY && eglInitialize (display, major, minor))
              return display;
          }
    }
  return EGL_NO_DISPLAY;
}

static EGLDisplay
get_display (EGLint *major,
             EGLint *minor)
{
  static gsize opened;

  if (g_once_init_enter (&opened))
    {
      shared_display = open_display (&shared_major, &shared_minor);
      g_once_init_leave (&opened, 1);
    }
  *major = shared_major;
  *minor = shared_minor;
  return shared_display;
}

static gboolean
create_framebuffer (MshedOffscreen  *self,
                    GError         **error)
{
  GLint max_samples = 0;

  glGetIntegerv (GL_MAX_SAMPLES, &max_samples);
  self->samples = CLAMP (self->samples, 0, max_samples);

  glGenFramebuffers (1, &self->fbo);
  glGenRenderbuffers (1, &self->color);
  glGenRenderbuffers (1, &self->depth);
  glBindRenderbuffer (GL_RENDERBUFFER, self->color);
  glRenderbufferStorageMultisample (GL_RENDERBUFFER, self->samples, GL_RGBA8, self->width,
                                    self->height);
  glBindRenderbuffer (GL_RENDERBUFFER, self->depth);
  glRenderbufferStorageMultisample (GL_RENDERBUFFER, self->samples, GL_DEPTH_COMPONENT24,
                                    self->width, self->height);
  glBindFramebuffer (GL_FRAMEBUFFER, self->fbo);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, self->color);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, self->depth);
  if (glCheckFramebufferStatus (GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    {
      g_set_error (error, MSHED_RENDER_ERROR, MSHED_RENDER_ERROR_FRAMEBUFFER,
                   _("The offscreen framebuffer (%d×%d, %d samples) is incomplete"),
                   self->width, self->height, self->samples);
      return FALSE;
    }
  if (self->samples > 0)
    {
      glGenFramebuffers (1, &self->resolve_fbo);
      glGenRenderbuffers (1, &self->resolve_color);
      glBindRenderbuffer (GL_RENDERBUFFER, self->resolve_color);
      glRenderbufferStorage (GL_RENDERBUFFER, GL_RGBA8, self->width, self->height);
      glBindFramebuffer (GL_FRAMEBUFFER, self->resolve_fbo);
      glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                                 self->resolve_color);
      if (glCheckFramebufferStatus (GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        {
          g_set_error (error, MSHED_RENDER_ERROR, MSHED_RENDER_ERROR_FRAMEBUFFER,
                       _("The offscreen resolve framebuffer is incomplete"));
          return FALSE;
        }
    }
  glBindRenderbuffer (GL_RENDERBUFFER, 0);
  glBindFramebuffer (GL_FRAMEBUFFER, self->fbo);
  glViewport (0, 0, self->width, self->height);
  return TRUE;
}

MshedOffscreen *
mshed_offscreen_new (int      width,
                     int      height,
                     int      samples,
                     GError **error)
{
  g_autoptr(MshedOffscreen) self = NULL;
  const char *ext;
  EGLint major, minor;
  EGLint attribs[16];
  guint n = 0;

  if (width <= 0 || height <= 0 || width > 16384 || height > 16384)
    {
      g_set_error (error, MSHED_RENDER_ERROR, MSHED_RENDER_ERROR_UNSUPPORTED,
                   _("Image size %d×%d is out of range (1..16384)"), width, height);
      return NULL;
    }

  self = g_new0 (MshedOffscreen, 1);
  self->width = width;
  self->height = height;
  self->samples = MAX (samples, 0);
  self->display = get_display (&major, &minor);
  if (self->display == EGL_NO_DISPLAY)
    {
      g_set_error (error, MSHED_RENDER_ERROR, MSHED_RENDER_ERROR_UNSUPPORTED,
                   _("EGL offers no display without a window system (neither "
                     "EGL_MESA_platform_surfaceless nor EGL_EXT_platform_device works)"));
      return NULL;
    }

  ext = eglQueryString (self->display, EGL_EXTENSIONS);
  if (ext == NULL || !has_word (ext, "EGL_KHR_surfaceless_context") ||
      !(has_word (ext, "EGL_KHR_no_config_context") ||
        has_word (ext, "EGL_MESA_configless_context")) ||
      !has_word (ext, "EGL_KHR_create_context"))
    {
      g_set_error (error, MSHED_RENDER_ERROR, MSHED_RENDER_ERROR_UNSUPPORTED,
                   _("EGL lacks surfaceless or configless contexts"));
      return NULL;
    }
  if (!eglBindAPI (EGL_OPENGL_API))
    {
      g_set_error (error, MSHED_RENDER_ERROR, MSHED_RENDER_ERROR_UNSUPPORTED,
                   _("EGL cannot bind the desktop OpenGL API"));
      return NULL;
    }

  attribs[n++] = EGL_CONTEXT_MAJOR_VERSION;
  attribs[n++] = 3;
  attribs[n++] = EGL_CONTEXT_MINOR_VERSION;
  attribs[n++] = 3;
  attribs[n++] = EGL_CONTEXT_OPENGL_PROFILE_MASK;
  attribs[n++] = EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT;
#ifndef NDEBUG
  if (major > 1 || (major == 1 && minor >= 5))
    {
      attribs[n++] = EGL_CONTEXT_OPENGL_DEBUG;
      attribs[n++] = EGL_TRUE;
    }
#endif
  attribs[n++] = EGL_NONE;
  self->context = eglCreateContext (self->display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
  if (self->context == EGL_NO_CONTEXT)
    {
      g_set_error (error, MSHED_RENDER_ERROR, MSHED_RENDER_ERROR_CONTEXT,
                   _("No OpenGL 3.3 core context (EGL error 0x%x)"), eglGetError ());
      return NULL;
    }
  if (!mshed_offscreen_make_current (self))
    {
      g_set_error (error, MSHED_RENDER_ERROR, MSHED_RENDER_ERROR_CONTEXT,
                   _("Cannot make the offscreen context current (EGL error 0x%x)"), eglGetError ());
      return NULL;
    }
  self->renderer = g_strdup ((const char *) glGetString (GL_RENDERER));
  if (!create_framebuffer (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

void
mshed_offscreen_free (MshedOffscreen *self)
{
  if (self == NULL)
    return;
  if (self->context != EGL_NO_CONTEXT)
    {
      if (mshed_offscreen_make_current (self))
        {
          GLuint fbos[2] = { self->fbo, self->resolve_fbo };
          GLuint rbs[3] = { self->color, self->depth, self->resolve_color };

          glBindFramebuffer (GL_FRAMEBUFFER, 0);
          glDeleteFramebuffers (2, fbos);
          glDeleteRenderbuffers (3, rbs);
        }
      eglMakeCurrent (self->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      eglDestroyContext (self->display, self->context);
    }
  g_free (self->renderer);
  g_free (self);
}

gboolean
mshed_offscreen_make_current (MshedOffscreen *self)
{
  return eglMakeCurrent (self->display, EGL_NO_SURFACE, EGL_NO_SURFACE, self->context) == EGL_TRUE;
}

void
mshed_offscreen_bind (MshedOffscreen *self)
{
  glBindFramebuffer (GL_FRAMEBUFFER, self->fbo);
  glViewport (0, 0, self->width, self->height);
}

int
mshed_offscreen_get_width (MshedOffscreen *self)
{
  return self->width;
}

int
mshed_offscreen_get_height (MshedOffscreen *self)
{
  return self->height;
}

const char *
mshed_offscreen_get_renderer (MshedOffscreen *self)
{
  return self->renderer;
}

guint8 *
mshed_offscreen_read_rgba (MshedOffscreen *self)
{
  gsize stride = 4 * (gsize) self->width;
  g_autofree guint8 *pixels = g_malloc (stride * (gsize) self->height);
  guint8 *flipped = g_malloc (stride * (gsize) self->height);

  if (self->samples > 0)
    {
      glBindFramebuffer (GL_READ_FRAMEBUFFER, self->fbo);
      glBindFramebuffer (GL_DRAW_FRAMEBUFFER, self->resolve_fbo);
      glBlitFramebuffer (0, 0, self->width, self->height, 0, 0, self->width, self->height,
                         GL_COLOR_BUFFER_BIT, GL_NEAREST);
      glBindFramebuffer (GL_READ_FRAMEBUFFER, self->resolve_fbo);
    }
  else
    glBindFramebuffer (GL_READ_FRAMEBUFFER, self->fbo);
  glReadBuffer (GL_COLOR_ATTACHMENT0);
  glPixelStorei (GL_PACK_ALIGNMENT, 1);
  glReadPixels (0, 0, self->width, self->height, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  /* GL's first row is the bottom one. */
  for (int y = 0; y < self->height; y++)
    memcpy (flipped + stride * (gsize) y, pixels + stride * (gsize) (self->height - 1 - y), stride);
  glBindFramebuffer (GL_FRAMEBUFFER, self->fbo);
  return flipped;
}
