/* step_pmi_int.h — what the PMI-1 (step_pmi.c) and PMI-2 (step_pmi2.c)
 * wire servers of a step share: the clients, the key-value space, the
 * barrier. */
#ifndef SLUICE_STEPD_STEP_PMI_INT_H
#define SLUICE_STEPD_STEP_PMI_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "slurmd/stepd/step.h"
#include "slurmd/stepd/step_pmi.h"

#define PMI_LINE_MAX   4096          /* PMI-1 request line */
#define PMI2_CMD_MAX   (64 * 1024)   /* PMI-2 command body */
#define PMI_BUF_MAX    (PMI2_CMD_MAX + 8)
#define PMI_KEY_MAX    256
#define PMI_VAL_MAX    1024

typedef struct {
	char *key;
	char *val;
} pmi_kv_t;

typedef struct {
	step_t       *st;
	step_task_t  *t;
	int           fd;
	struct event *ev;
	char         *buf;            /* PMI_BUF_MAX + 1 */
	size_t        len;
	int           ver;            /* 1 until "init pmi_version=2" */
	bool          in_barrier;
	char         *wait_attr;      /* PMI-2: node attribute waited for */
	char         *thrid;          /* PMI-2 "thrid" of the waiting command */
} pmi_client_t;

struct step_pmi {
	step_t       *st;
	pmi_client_t *c;              /* one per local task */
	pmi_kv_t     *kvs;            /* visible to every rank */
	size_t        kv_cnt;
	pmi_kv_t     *node_attrs;     /* PMI-2 info-putnodeattr: this node */
	size_t        node_attr_cnt;
	char         *pending;        /* "key=value\n" put since the fence */
	uint32_t      in_barrier;
	char         *kvsname;
};

const char *pmi_kv_find(const pmi_kv_t *v, size_t n, const char *key);
void pmi_kv_push(pmi_kv_t **v, size_t *n, const char *key, const char *val);
/* A put: seen here at once, by the other nodes after the next fence. */
void pmi_put(step_pmi_t *p, const char *key, const char *val);
/* The client entered the barrier / fence. */
void pmi_barrier_in(step_pmi_t *p, pmi_client_t *c);
/* Write all of buf to the client (blocking; it is waiting for it). */
void pmi_write(pmi_client_t *c, const char *buf, size_t len);
/* Close the client's socket. */
void pmi_close(pmi_client_t *c);

/* step_pmi2.c: consume whole PMI-2 commands from c->buf; false if the
 * client was closed. */
bool pmi2_input(step_pmi_t *p, pmi_client_t *c);
/* PMI-2 answer to a fence. */
void pmi2_fence_done(pmi_client_t *c);
/* A node attribute was put: answer clients waiting for it. */
void pmi2_attr_put(step_pmi_t *p, const char *key);

#endif
