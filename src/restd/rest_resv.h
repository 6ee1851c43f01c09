/* rest_resv.h — a REST reservation_desc_msg (POST reservation,
 * reservations: v0.0.43) into scontrol create/update reservation's
 * request.  Returns 0, or ESLURM_REST_FAIL_PARSING / ESLURM_NOT_SUPPORTED
 * with *err (xmalloc'd, naming the member); d is initialised here and
 * freed with fields_free(resv_desc_fields, d). */
#ifndef SLUICE_REST_RESV_H
#define SLUICE_REST_RESV_H

#include <json-c/json.h>

#include "common/resv_info.h"

int rest_resv_parse(json_object *o, resv_desc_t *d, char **err);

#endif
