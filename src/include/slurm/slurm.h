/* slurm.h — the part of Slurm's <slurm/slurm.h> that SPANK plugins use:
 * the NO_VAL/INFINITE markers, the special step ids, the version and
 * error numbers.  lib/libslurm.so (libslurm.so.43) provides the
 * slurm_strerror()/slurm_get_errno()/slurm_seterrno() of
 * <slurm/slurm_errno.h>; Sluice ships no more of libslurm's API
 * (slurm_load_job() and friends): a program calling it does not build
 * against these headers.
 */
#ifndef _SLURM_H
#define _SLURM_H

#include <stdint.h>

#include <slurm/slurm_errno.h>
#include <slurm/slurm_version.h>

#ifdef __cplusplus
extern "C" {
#endif

#define INFINITE8  (0xff)
#define INFINITE16 (0xffff)
#define INFINITE   (0xffffffff)
#define INFINITE64 (0xffffffffffffffff)
#define NO_VAL8    (0xfe)
#define NO_VAL16   (0xfffe)
#define NO_VAL     (0xfffffffe)
#define NO_VAL64   (0xfffffffffffffffe)

/* step ids with a meaning of their own */
#define SLURM_PENDING_STEP     (0xfffffffd)
#define SLURM_BATCH_SCRIPT     (0xfffffffb)
#define SLURM_EXTERN_CONT      (0xfffffffc)
#define SLURM_INTERACTIVE_STEP (0xfffffffa)

#define SLURM_ID_HASH_NUM 10

#ifdef __cplusplus
}
#endif

#endif
