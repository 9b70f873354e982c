/* CANN-compatible lower runtime layer: the device (see runtime/base.h). */
#ifndef OPENACLNN_RUNTIME_DEV_H_
#define OPENACLNN_RUNTIME_DEV_H_

#include "runtime/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Like aclrtSetDevice/aclrtResetDevice (counted together with them), without needing aclInit. */
RTS_API rtError_t rtSetDevice(int32_t devId);
RTS_API rtError_t rtDeviceReset(int32_t devId);

/* The overflow mode shared with aclrtSetDeviceSatMode/aclrtGetDeviceSatMode. */
RTS_API rtError_t rtSetDeviceSatMode(rtFloatOverflowMode_t floatOverflowMode);
RTS_API rtError_t rtGetDeviceSatMode(rtFloatOverflowMode_t* floatOverflowMode);

#ifdef __cplusplus
}
#endif

#endif /* OPENACLNN_RUNTIME_DEV_H_ */
