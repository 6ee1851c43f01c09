/* hwinfo.c — hardware detection with hwloc (see hwinfo.h). */
#include "slurmd/hwinfo.h"

#include <errno.h>
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static uint16_t clamp16(long v)
{
	if (v < 1)
		return 1;
	return v > 0xfffe ? 0xfffe : (uint16_t) v;
}

static int detect_topology(hwinfo_t *hw)
{
	hwloc_topology_t topo;
	int pkgs, cores, pus;

	if (hwloc_topology_init(&topo) < 0)
		return -1;
	if (hwloc_topology_load(topo) < 0) {
		hwloc_topology_destroy(topo);
		return -1;
	}
	pkgs = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
	cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
	pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
	if (pus < 1)
		pus = (int) sysconf(_SC_NPROCESSORS_ONLN);
	if (cores < 1)
		cores = pus;
	if (pkgs < 1)
		pkgs = 1;
	hw->cpus = clamp16(pus);
	hw->sockets = clamp16(pkgs);
	hw->cores = clamp16(cores / pkgs);
	hw->threads = clamp16(pus / cores);
	hwloc_topology_destroy(topo);
	return 0;
}

/* Test hook, set only by tests/integration (test_reboot.py): the boot
 * time this slurmd reports, in seconds since the epoch, so that a test
 * can "reboot" a node by restarting its slurmd without rebooting the
 * machine.  Nothing else reads it; a malformed value is ignored with a
 * warning and the kernel's boot time is reported. */
static void _test_boot_time(hwinfo_t *hw)
{
	const char *v = getenv("SLUICE_TEST_BOOT_TIME");
	char *end;
	long long t;

	if (!v || !*v)
		return;
	errno = 0;
	t = strtoll(v, &end, 10);
	if (errno || *end || t <= 0) {
		error("SLUICE_TEST_BOOT_TIME=%s is not a time: ignored", v);
		return;
	}
	hw->boot_time = (time_t) t;
	info("test hook: boot time %lld from SLUICE_TEST_BOOT_TIME", t);
}

static void detect_uptime(hwinfo_t *hw)
{
	FILE *f = fopen("/proc/uptime", "r");
	double up = 0;

	if (f) {
		if (fscanf(f, "%lf", &up) != 1)
			up = 0;
		fclose(f);
	}
	hw->uptime = (uint32_t) up;
	hw->boot_time = time(NULL) - (time_t) up;
	_test_boot_time(hw);
}

static void detect_names(hwinfo_t *hw)
{
	struct utsname u;
	char host[256] = "";
	char *dot;

	if (gethostname(host, sizeof(host) - 1) < 0)
		strcpy(host, "localhost");
	if ((dot = strchr(host, '.')))
		*dot = '\0';
	hw->hostname = xstrdup(host);
	if (uname(&u) == 0) {
		hw->arch = xstrdup(u.machine);
		hw->os = xstrdup_printf("%s %s %s", u.sysname, u.release,
					u.version);
	} else {
		hw->arch = xstrdup("unknown");
		hw->os = xstrdup("unknown");
	}
}

int hwinfo_detect(hwinfo_t *hw)
{
	int rc;

	memset(hw, 0, sizeof(*hw));
	hw->boards = 1;
	detect_names(hw);
	detect_uptime(hw);
	rc = detect_topology(hw);
	if (rc < 0) {
		error("hwloc: could not load the topology, using sysconf");
		hw->cpus = clamp16(sysconf(_SC_NPROCESSORS_ONLN));
		hw->sockets = 1;
		hw->cores = hw->cpus;
		hw->threads = 1;
	}
	/* physical memory as the kernel counts it (hwloc may see less
	 * inside a restricted cpuset) */
	hw->real_memory = (uint64_t) sysconf(_SC_PHYS_PAGES) *
			  (uint64_t) sysconf(_SC_PAGESIZE) / (1024 * 1024);
	if (hw->real_memory < 1)
		hw->real_memory = 1;
	return rc;
}

void hwinfo_free(hwinfo_t *hw)
{
	xfree(hw->hostname);
	xfree(hw->arch);
	xfree(hw->os);
}

void hwinfo_print(const hwinfo_t *hw, FILE *out)
{
	uint32_t up = hw->uptime;

	fprintf(out, "NodeName=%s CPUs=%u Boards=%u SocketsPerBoard=%u "
		"CoresPerSocket=%u ThreadsPerCore=%u RealMemory=%llu\n",
		hw->hostname, hw->cpus, hw->boards,
		hw->sockets / hw->boards, hw->cores, hw->threads,
		(unsigned long long) hw->real_memory);
	fprintf(out, "UpTime=%u-%02u:%02u:%02u\n", up / 86400,
		(up / 3600) % 24, (up / 60) % 60, up % 60);
}

uint64_t hwinfo_free_mem_mb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	unsigned long long kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb / 1024;
}

uint32_t hwinfo_cpu_load(void)
{
	double load[1];

	if (getloadavg(load, 1) != 1)
		return 0;
	return (uint32_t) (load[0] * 100.0);
}
