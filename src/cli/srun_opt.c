/* srun_opt.c — srun's options beyond the shared job-option table. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/srun.h"
#include "common/bcast_block.h"
#include "common/conf.h"
#include "common/cpu_bind.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

enum {
	O_EXACT = 0x80, O_OVERLAP, O_MPI, O_JOBID, O_HET, O_CPU_BIND,
	O_MULTI_PROG, O_PTY, O_TASK_PROLOG, O_TASK_EPILOG, O_DEBUGGER_TEST,
	O_PROLOG, O_EPILOG, O_RESV_PORTS, O_BCAST, O_BCAST_EXCLUDE,
	O_COMPRESS, O_SEND_LIBS, O_MPI_COMBINE, O_SLURMD_DEBUG,
	O_CTRL_COMM_IFHN,
};

static const struct option srun_long[] = {
	{ "label", no_argument, NULL, 'l' },
	{ "unbuffered", no_argument, NULL, 'u' },
	{ "relative", required_argument, NULL, 'r' },
	{ "kill-on-bad-exit", optional_argument, NULL, 'K' },
	{ "wait", required_argument, NULL, 'W' },
	{ "distribution", required_argument, NULL, 'm' },
	{ "exact", no_argument, NULL, O_EXACT },
	{ "overlap", no_argument, NULL, O_OVERLAP },
	{ "mpi", required_argument, NULL, O_MPI },
	{ "jobid", required_argument, NULL, O_JOBID },
	{ "het-group", required_argument, NULL, O_HET },
	{ "het-job", no_argument, NULL, O_HET },
	{ "cpu-bind", required_argument, NULL, O_CPU_BIND },
	{ "cpu_bind", required_argument, NULL, O_CPU_BIND },
	{ "multi-prog", no_argument, NULL, O_MULTI_PROG },
	{ "pty", no_argument, NULL, O_PTY },
	{ "task-prolog", required_argument, NULL, O_TASK_PROLOG },
	{ "task-epilog", required_argument, NULL, O_TASK_EPILOG },
	{ "debugger-test", no_argument, NULL, O_DEBUGGER_TEST },
	{ "prolog", required_argument, NULL, O_PROLOG },
	{ "resv-ports", optional_argument, NULL, O_RESV_PORTS },
	{ "epilog", required_argument, NULL, O_EPILOG },
	{ "bcast", optional_argument, NULL, O_BCAST },
	{ "bcast-exclude", required_argument, NULL, O_BCAST_EXCLUDE },
	{ "compress", optional_argument, NULL, O_COMPRESS },
	{ "send-libs", optional_argument, NULL, O_SEND_LIBS },
	{ "preserve-env", no_argument, NULL, 'E' },
	{ "mpi-combine", required_argument, NULL, O_MPI_COMBINE },
	{ "slurmd-debug", required_argument, NULL, O_SLURMD_DEBUG },
	{ "ctrl-comm-ifhn", required_argument, NULL, O_CTRL_COMM_IFHN },
	{ NULL, 0, NULL, 0 },
};

static int _dist(srun_opts_t *so, const char *arg)
{
	char *s = xstrdup(arg), *colon = strchr(s, ':');
	int rc = 0;

	if (!cli_dist_valid(arg)) {
		error("Invalid --distribution specification");
		xfree(s);
		return -1;
	}
	if (colon)
		*colon = '\0';          /* :block|cyclic for cores: no effect */
	else if ((colon = strchr(s, ',')))
		*colon = '\0';          /* ,Pack|NoPack */
	if (!strcasecmp(s, "block")) {
		so->dist = STEP_DIST_BLOCK;
	} else if (!strcasecmp(s, "cyclic")) {
		so->dist = STEP_DIST_CYCLIC;
	} else if (!strncasecmp(s, "plane=", 6) && atoi(s + 6) > 0) {
		so->dist = STEP_DIST_PLANE;
		so->plane = (uint16_t) atoi(s + 6);
	} else if (!strcmp(s, "*") || !strcasecmp(s, "arbitrary")) {
		so->dist = 0;
	} else {
		error("Invalid --distribution specification");
		rc = -1;
	}
	if (!rc) {
		xfree(so->dist_str);
		so->dist_str = xstrdup(so->dist == STEP_DIST_PLANE ? "plane" :
				       so->dist == STEP_DIST_CYCLIC ? "cyclic" :
				       "block");
	}
	xfree(s);
	return rc;
}

static int _cb(cli_job_opts_t *o, int val, const char *arg)
{
	srun_opts_t *so = o->extra_ctx;
	uint32_t v;

	switch (val) {
	case 'l': so->label = true; break;
	case 'u': so->unbuffered = true; break;
	case 'K':
		if (arg && parse_u32(arg, &v) < 0)
			return cli_opt_bad_number(arg, "kill-on-bad-exit");
		so->kill_bad_exit = !arg || v != 0;
		break;
	case 'r':
		if (parse_u32(arg, &v) < 0)
			return cli_opt_bad_number(arg, "relative");
		if (v > 65533) {
			error("Invalid --relative specification");
			return -1;
		}
		so->relative = (uint16_t) v;
		break;
	case 'W':
		if (parse_u32(arg, &v) < 0)
			return cli_opt_bad_number(arg, "wait");
		so->wait_sec = (int) v;
		break;
	case 'm': return _dist(so, arg);
	case O_EXACT: so->exact = true; break;
	case O_RESV_PORTS: {
		char *end = NULL;
		unsigned long n = arg ? strtoul(arg, &end, 10) : 0;

		if (arg && (!*arg || *end || n >= NO_VAL16)) {
			error("Invalid --resv-ports specification");
			return -1;
		}
		/* without a count: one per task on a node (the controller) */
		so->resv_ports = arg ? (uint16_t) n : (uint16_t) (NO_VAL16 - 1);
		break;
	}
	case O_OVERLAP: so->overlap = true; break;
	case O_MPI:
		xfree(so->mpi);
		so->mpi = xstrdup(arg);
		break;
	case O_JOBID:
		if (parse_u32(arg, &v) < 0 || !v) {
			error("Invalid --jobid specification");
			return -1;
		}
		so->jobid = v;
		break;
	case O_HET:
		so->het = true;
		if (arg) {
			xfree(so->het_group);
			so->het_group = xstrdup(arg);
		}
		break;
	case O_DEBUGGER_TEST: so->debugger_test = true; break;
	case O_CPU_BIND: {
		cpu_bind_t b;
		char err[256];

		if (cpu_bind_parse(arg, &b, err, sizeof(err)) < 0) {
			error("%s", err);
			return -1;
		}
		cpu_bind_free(&b);
		xfree(so->cpu_bind);
		so->cpu_bind = xstrdup(arg);
		break;
	}
	case O_TASK_PROLOG:
	case O_TASK_EPILOG:
	case O_PROLOG:
	case O_EPILOG: {
		char **dst = val == O_TASK_PROLOG ? &so->task_prolog :
			     val == O_TASK_EPILOG ? &so->task_epilog :
			     val == O_PROLOG ? &so->prolog : &so->epilog;

		xfree(*dst);
		*dst = xstrdup(arg);
		break;
	}
	case O_BCAST:
		so->bcast = true;
		xfree(so->bcast_dest);
		so->bcast_dest = arg && *arg ? xstrdup(arg) : NULL;
		break;
	case O_BCAST_EXCLUDE:
		xfree(so->bcast_exclude);
		so->bcast_exclude = xstrdup(arg);
		break;
	case O_COMPRESS:
		so->compress_set = true;
		if (bcast_compress_parse(arg, &so->compress) < 0) {
			error("Compression type '%s' unknown, disabling "
			      "compression support.", arg);
			so->compress = BCAST_COMPRESS_NONE;
		}
		break;
	case O_SEND_LIBS:
		so->send_libs_set = true;
		if (!arg || !strcasecmp(arg, "yes") || !strcasecmp(arg, "y"))
			so->send_libs = true;
		else if (!strcasecmp(arg, "no") || !strcasecmp(arg, "n"))
			so->send_libs = false;
		else
			error("Ignoring unrecognized --send-libs value '%s'",
			      arg);
		break;
	case O_MULTI_PROG: so->multi_prog = true; break;
	case O_PTY: so->pty = true; break;
	case 'E': so->preserve_env = true; break;
	case O_MPI_COMBINE:
		/* one MPI world over a het step's components or one each
		 * (srun_het.c refuses "no" where it would matter) */
		if (strcasecmp(arg, "yes") && strcasecmp(arg, "no")) {
			error("Invalid --mpi-combine value: %s", arg);
			return -1;
		}
		so->mpi_no_combine = !strcasecmp(arg, "no");
		break;
	case O_SLURMD_DEBUG:    /* refused, never dropped */
		error("--slurmd-debug is not supported: a step's slurmstepd "
		      "logs at the node's SlurmdDebug level");
		return -1;
	case O_CTRL_COMM_IFHN:
		error("--ctrl-comm-ifhn is not supported: srun listens on the "
		      "address it reaches the controller from");
		return -1;
	default: return -1;
	}
	return 0;
}

/* srun's input variables for its own options (srun(1)); the shared
 * table's are read by cli_opt_parse_env. */
static const struct {
	const char *name;
	int         val;
} srun_env[] = {
	{ "SLURM_LABELIO", 'l' },
	{ "SLURM_UNBUFFEREDIO", 'u' },
	{ "SLURM_KILL_BAD_EXIT", 'K' },
	{ "SLURM_WAIT", 'W' },
	{ "SLURM_DISTRIBUTION", 'm' },
	{ "SLURM_EXACT", O_EXACT },
	{ "SLURM_OVERLAP", O_OVERLAP },
	{ "SLURM_MPI_TYPE", O_MPI },
	{ "SLURM_TASK_PROLOG", O_TASK_PROLOG },
	{ "SLURM_TASK_EPILOG", O_TASK_EPILOG },
	{ "SLURM_PROLOG", O_PROLOG },
	{ "SLURM_EPILOG", O_EPILOG },
	{ "SLURM_BCAST", O_BCAST },
	{ "SLURM_BCAST_EXCLUDE", O_BCAST_EXCLUDE },
	{ "SLURM_COMPRESS", O_COMPRESS },
	{ "SLURM_SEND_LIBS", O_SEND_LIBS },
	{ "SLURM_MPI_COMBINE", O_MPI_COMBINE },
};

int srun_opt_parse_env(cli_job_opts_t *o, char *const *envp)
{
	for (size_t i = 0; i < sizeof(srun_env) / sizeof(srun_env[0]); i++) {
		size_t n = strlen(srun_env[i].name);

		for (size_t e = 0; envp && envp[e]; e++) {
			const char *val = envp[e] + n + 1;

			if (strncmp(envp[e], srun_env[i].name, n) ||
			    envp[e][n] != '=')
				continue;
			if (_cb(o, srun_env[i].val, val) < 0)
				return -1;
			break;
		}
	}
	return 0;
}

void srun_opt_setup(cli_job_opts_t *o, srun_opts_t *so)
{
	memset(so, 0, sizeof(*so));
	so->relative = NO_VAL16;
	so->resv_ports = NO_VAL16;
	so->kill_bad_exit = -1;
	so->wait_sec = -1;
	o->extra_long = srun_long;
	o->extra_short = "lur:K::W:m:E";
	o->extra_cb = _cb;
	o->extra_ctx = so;
}

void srun_opt_conf_defaults(srun_opts_t *so, const struct slurm_conf *c)
{
	if (so->kill_bad_exit < 0)
		so->kill_bad_exit = c->kill_on_bad_exit != 0;
	if (so->wait_sec < 0)
		so->wait_sec = c->wait_time;
	if (!so->prolog)
		so->prolog = xstrdup(c->srun_prolog);
	if (!so->epilog)
		so->epilog = xstrdup(c->srun_epilog);
	if (so->bcast) {
		bcast_params_t bp;
		char err[256] = "";

		if (bcast_params_parse(c->bcast_params, &bp, err,
				       sizeof(err)) < 0)
			error("%s", err);
		if (!so->compress_set && bp.compress >= 0)
			so->compress = (uint16_t) bp.compress;
		if (!so->send_libs_set && bp.send_libs)
			so->send_libs = true;
		so->bcast_dir = bp.dest_dir;    /* taken */
	}
}
