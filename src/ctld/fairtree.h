/* fairtree.h — the Fair Tree fair-share algorithm (Slurm's default since
 * 19.05; PriorityFlags=NO_FAIR_TREE selects the classic one) on a tree
 * given as an array, so that it can be computed and tested apart from the
 * association cache.
 *
 * Per association, among its siblings (the children of its parent, where
 * an account with Fairshare=parent is replaced by its own children):
 *   NormShares S = shares / sum of the siblings' shares
 *   EffectvUsage U = usage / the parent's usage (0 if that is 0)
 *   LevelFS = S / U (infinity when U is 0; 0 when S is 0)
 * An association with Fairshare=parent takes S, U and LevelFS of the
 * nearest association above it that has shares of its own (an account's
 * LevelFS is then not shown).
 *
 * Users are ranked by a depth-first walk from the root visiting siblings
 * in descending LevelFS order: the first user gets rank N (the number of
 * user associations), the next N-1, ...; FairShare = rank / N.  Siblings
 * with equal LevelFS are tied: tied users share one rank, a user tied
 * with an account shares its rank with the account's first user, and
 * tied accounts have their children merged and sorted together.
 */
#ifndef SLUICE_CTLD_FAIRTREE_H
#define SLUICE_CTLD_FAIRTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Fairshare=parent, as slurmdbd stores it. */
#define FAIRTREE_SHARES_PARENT 0x7fffffffu

typedef struct {
	/* in */
	int         parent;       /* index, -1 for the root */
	bool        user;
	uint32_t    shares;       /* raw shares, or FAIRTREE_SHARES_PARENT */
	double      usage;        /* raw usage, with everything below it */
	const char *name;         /* user or account: order among ties */
	/* out */
	double      norm_shares;  /* S */
	double      eff_usage;    /* U */
	double      level_fs;     /* S / U; NAN when not shown */
	double      factor;       /* users: rank / users; accounts: NAN */
	uint32_t    rank;         /* users */
} ft_node_t;

/* Compute the out fields of n[0..cnt).  Parents must be valid indexes
 * (a cycle or a depth over 64 is cut off). */
void fairtree_calc(ft_node_t *n, size_t cnt);

#endif
