/* The grader's <assert.h>, found before the system's when a student's test program is built.
 *
 * A failed assert() is recorded (fcd_check.c) and the program carries on, so every failing
 * assertion of a run is counted, not just the first.  Everything else behaves as the C standard
 * says: NDEBUG turns assert() off, and this header may be included again and again. */
#ifndef FCD_ASSERT_H
#define FCD_ASSERT_H
void fcd_assertion_failed(const char *expression, const char *file, unsigned int line, const char *function);
#if !defined(__cplusplus) && !defined(static_assert)
#define static_assert _Static_assert
#endif
#endif

#undef assert
#ifdef NDEBUG
#define assert(expression) ((void)0)
#else
#define assert(expression) \
    ((expression) ? (void)0 : fcd_assertion_failed(#expression, __FILE__, __LINE__, __func__))
#endif
