/* cli_topo.h — scontrol show topology [name]: the switches (tree) or
 * blocks (block) of the controller's topology, as Slurm prints them. */
#ifndef SLUICE_CLI_TOPO_H
#define SLUICE_CLI_TOPO_H

/* name: a switch, block or node (NULL: all).  The command's exit code. */
int scontrol_topo_show(const char *name);

#endif
