/* glfw_loader.h - GLFW loaded at run time (dlopen "libglfw.so.3"), so the slabcast program runs on
 * machines without GLFW or X11 libraries (headless GPU servers) and opens a window where they exist.
 * After app_glfw_load() succeeds, the glfw* names below call into the loaded library. */
#ifndef SLABCAST_APP_GLFW_LOADER_H
#define SLABCAST_APP_GLFW_LOADER_H

#include <stddef.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#define APP_GLFW_FUNCTIONS(X)                                                                        \
    X(glfwCreateWindow) X(glfwDestroyWindow) X(glfwGetCursorPos) X(glfwGetFramebufferSize)          \
    X(glfwGetProcAddress) X(glfwGetTime) X(glfwGetWindowUserPointer) X(glfwInit)                     \
    X(glfwMakeContextCurrent) X(glfwPollEvents) X(glfwSetCursorPosCallback) X(glfwSetErrorCallback)  \
    X(glfwSetFramebufferSizeCallback) X(glfwSetKeyCallback) X(glfwSetMouseButtonCallback)            \
    X(glfwSetScrollCallback) X(glfwSetWindowShouldClose) X(glfwSetWindowTitle)                       \
    X(glfwSetWindowUserPointer) X(glfwSwapBuffers) X(glfwSwapInterval) X(glfwTerminate)              \
    X(glfwWindowHint) X(glfwWindowShouldClose) X(glfwGetPrimaryMonitor) X(glfwGetVideoMode)      \
    X(glfwSetWindowMonitor) X(glfwGetWindowPos) X(glfwGetWindowSize) X(glfwGetWindowMonitor)          \
    X(glfwSetDropCallback) X(glfwSetWindowSize)

typedef struct app_glfw_api {
#define APP_GLFW_MEMBER(name) __typeof__(&name) name;
    APP_GLFW_FUNCTIONS(APP_GLFW_MEMBER)
#undef APP_GLFW_MEMBER
} app_glfw_api;

extern app_glfw_api app_glfw;

/* Loads the library and every function above; 0, or -1 with the reason in why. Idempotent. */
int app_glfw_load(char *why, size_t why_size);

#ifndef APP_GLFW_LOADER_IMPLEMENTATION
#define APP_GLFW_REDIRECT(name) app_glfw.name
#define glfwCreateWindow APP_GLFW_REDIRECT(glfwCreateWindow)
#define glfwDestroyWindow APP_GLFW_REDIRECT(glfwDestroyWindow)
#define glfwGetCursorPos APP_GLFW_REDIRECT(glfwGetCursorPos)
#define glfwGetFramebufferSize APP_GLFW_REDIRECT(glfwGetFramebufferSize)
#define glfwGetProcAddress APP_GLFW_REDIRECT(glfwGetProcAddress)
#define glfwGetTime APP_GLFW_REDIRECT(glfwGetTime)
#define glfwGetWindowUserPointer APP_GLFW_REDIRECT(glfwGetWindowUserPointer)
#define glfwInit APP_GLFW_REDIRECT(glfwInit)
#define glfwMakeContextCurrent APP_GLFW_REDIRECT(glfwMakeContextCurrent)
#define glfwPollEvents APP_GLFW_REDIRECT(glfwPollEvents)
#define glfwSetCursorPosCallback APP_GLFW_REDIRECT(glfwSetCursorPosCallback)
#define glfwSetErrorCallback APP_GLFW_REDIRECT(glfwSetErrorCallback)
#define glfwSetFramebufferSizeCallback APP_GLFW_REDIRECT(glfwSetFramebufferSizeCallback)
#define glfwSetKeyCallback APP_GLFW_REDIRECT(glfwSetKeyCallback)
#define glfwSetMouseButtonCallback APP_GLFW_REDIRECT(glfwSetMouseButtonCallback)
#define glfwSetScrollCallback APP_GLFW_REDIRECT(glfwSetScrollCallback)
#define glfwSetWindowShouldClose APP_GLFW_REDIRECT(glfwSetWindowShouldClose)
#define glfwSetWindowTitle APP_GLFW_REDIRECT(glfwSetWindowTitle)
#define glfwSetWindowUserPointer APP_GLFW_REDIRECT(glfwSetWindowUserPointer)
#define glfwSwapBuffers APP_GLFW_REDIRECT(glfwSwapBuffers)
#define glfwSwapInterval APP_GLFW_REDIRECT(glfwSwapInterval)
#define glfwTerminate APP_GLFW_REDIRECT(glfwTerminate)
#define glfwWindowHint APP_GLFW_REDIRECT(glfwWindowHint)
#define glfwWindowShouldClose APP_GLFW_REDIRECT(glfwWindowShouldClose)
#define glfwGetPrimaryMonitor APP_GLFW_REDIRECT(glfwGetPrimaryMonitor)
#define glfwGetVideoMode APP_GLFW_REDIRECT(glfwGetVideoMode)
#define glfwSetWindowMonitor APP_GLFW_REDIRECT(glfwSetWindowMonitor)
#define glfwGetWindowPos APP_GLFW_REDIRECT(glfwGetWindowPos)
#define glfwGetWindowSize APP_GLFW_REDIRECT(glfwGetWindowSize)
#define glfwGetWindowMonitor APP_GLFW_REDIRECT(glfwGetWindowMonitor)
#define glfwSetDropCallback APP_GLFW_REDIRECT(glfwSetDropCallback)
#define glfwSetWindowSize APP_GLFW_REDIRECT(glfwSetWindowSize)
#endif

#endif
