/* CANN-compatible lower runtime layer (the rt* functions of libruntime.so): its base types.
   Programs include "runtime/rt.h" (or one of these headers) with -I <prefix>/include. The rt*
   functions are the same runtime as acl*: one device, one registry of memory, streams and
   contexts, the same checks and messages (aclGetRecentErrMsg). They return RT_ERROR_NONE or an
   ACL_ERROR_RT_* code (acl/error_codes/rt_error_codes.h). */
#ifndef OPENACLNN_RUNTIME_BASE_H_
#define OPENACLNN_RUNTIME_BASE_H_

#include <stdint.h>

#include "acl/error_codes/rt_error_codes.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef RTS_API
#define RTS_API __attribute__((visibility("default")))
#endif

typedef int32_t rtError_t;
static const int32_t RT_ERROR_NONE = 0;

typedef void* rtStream_t;
typedef void* rtEvent_t;

/* The device's floating-point overflow mode (see aclrtFloatOverflowMode). */
typedef enum tagRtFloatOverflowMode {
  RT_OVERFLOW_MODE_SATURATION = 0,
  RT_OVERFLOW_MODE_INFNAN = 1,
  RT_OVERFLOW_MODE_UNDEF = 2
} rtFloatOverflowMode_t;

#ifdef __cplusplus
}
#endif

#endif /* OPENACLNN_RUNTIME_BASE_H_ */
