// Debian's libedit (libedit-dev), through its readline-compatible interface, as sqlite3 and psql use it.
// No feature macros here (_GNU_SOURCE, _XOPEN_SOURCE): they change how glibc's headers define
// shared types such as fd_set, and a module that sees them differently from Dispatch's fails to build
// from a clean module cache. wcwidth is declared by hand instead, as glibc defines it.
#include <stdio.h>
#include <wchar.h>
#include <editline/readline.h>

extern int wcwidth(wchar_t character);

// libedit's settings are C globals; Swift 6 reaches them through these functions.

/// Names the program (for ~/.editrc) and sets the completion callback.
static inline void objdb_readline_setup(rl_completion_func_t *complete) {
    rl_readline_name = "objdb-inspect";
    rl_attempted_completion_function = complete;
}

/// Tells libedit not to fall back to file-name completion.
static inline void objdb_readline_completion_over(void) { rl_attempted_completion_over = 1; }

/// The line being edited.
static inline const char *objdb_readline_line(void) { return rl_line_buffer; }

/// The columns a character takes on a terminal (-1: not printable).
static inline int objdb_wcwidth(unsigned int character) { return wcwidth((wchar_t)character); }
