/* fuzz_trace_swf.c — arbitrary text into sluice-sim's swf trace reader
 * (trace_swf_read), strict and with --skip-bad: fuzz_trace.h says what
 * must hold. */
#define TRACE_READ trace_swf_read
#include "fuzz_trace.h"
