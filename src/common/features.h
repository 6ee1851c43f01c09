/* features.h — node feature expressions (-C/--constraint) against a
 * node's Features list ("intel,ib").
 *
 * Grammar: names joined by '&' (AND, also ','), '|' (OR), grouped with
 * parentheses; AND binds tighter.  A name is letters, digits and "_-.:=".
 * Slurm's matching-OR brackets and counts ("[a|b]", "a*2") are refused.
 */
#ifndef SLUICE_FEATURES_H
#define SLUICE_FEATURES_H

#include <stdbool.h>

/* Is expr well formed?  On false, err (if given) says why. */
bool features_valid(const char *expr, char *err, size_t errlen);
/* Does a node with these features ("a,b", NULL = none) satisfy expr?
 * A malformed expr matches nothing. */
bool features_match(const char *expr, const char *node_features);
/* Call fn for each feature name in expr (for "is it known" checks);
 * stops and returns false when fn does. */
bool features_each(const char *expr, bool (*fn)(const char *name, void *arg),
		   void *arg);

#endif
