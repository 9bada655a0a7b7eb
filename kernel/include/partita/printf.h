/*
 * pt_printf: formatted output for tasks, through the trace (not the console).
 *
 * Why the trace: the console (pt_console_write) is one UART shared by every hart behind a
 * ticket lock with interrupts off, so a task that prints can delay a task on another core,
 * which Partita promises never happens. pt_printf instead formats into the caller's stack and
 * appends the text to the calling hart's own trace ring (no lock shared between harts): it
 * costs only the caller's own time, which its WCET must cover, and never another core's.
 * The host decodes the lines after the run (`partita run`/`partita trace` write print.log,
 * each line stamped with its virtual time, hart and thread).
 *
 * Cost: one trace record per 15 characters (pt_trace_mark: a direct call from a kernel
 * thread, a system call from a user thread). docs/user-guide.md "Print from a task" gives the
 * measured cycles. A line longer than PT_PRINTF_MAX characters is cut there.
 *
 * Formats: %d %i %u %x %X %c %s %p %%, with the l/ll/z length modifiers, a width and the 0
 * flag (e.g. %08lx). No floating point (the kernel and applications are soft-float).
 * Returns the number of characters traced.
 */
#ifndef PARTITA_PRINTF_H
#define PARTITA_PRINTF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define PT_PRINTF_MAX 120

/* Record layout (PT_EV_MARK): arg0 = PT_PRINTF_TAG << 56 | 7 text bytes, arg1 = 8 text bytes;
 * a line ends with the record that holds a NUL (short text is NUL-padded). */
#define PT_PRINTF_TAG 0xF5u

int pt_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int pt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

#endif
