/* fuzz_trace_sacct.c — arbitrary text into sluice-sim's sacct trace reader
 * (trace_sacct_read), strict and with --skip-bad: fuzz_trace.h says what
 * must hold. */
#define TRACE_READ trace_sacct_read
#include "fuzz_trace.h"
