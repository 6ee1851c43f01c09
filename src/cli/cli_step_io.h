/* cli_step_io.h — what srun and sattach share to receive a step's I/O
 * stream (io_frame.h): the address the nodes' stepds connect back to and
 * the key they must show in IO_INIT. */
#ifndef SLUICE_CLI_STEP_IO_H
#define SLUICE_CLI_STEP_IO_H

/* The local address the controller is reached by (as Slurm's
 * SLURM_LAUNCH_NODE_IPADDR); xmalloc'd. */
char *cli_my_addr(void);
/* 32 random hex digits; xmalloc'd. */
char *cli_io_key(void);

#endif
