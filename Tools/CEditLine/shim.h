// Debian's libedit (libedit-dev), through its readline-compatible interface, as sqlite3 and psql use it.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <stdio.h>
#include <wchar.h>
#include <editline/readline.h>

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
