/* CANN-compatible lower runtime layer: streams (see runtime/base.h). A stream from rtStreamCreate
   is an aclrtStream: operators and aclrt* functions accept it, and the reverse. */
#ifndef OPENACLNN_RUNTIME_STREAM_H_
#define OPENACLNN_RUNTIME_STREAM_H_

#include "runtime/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* priority 0 (highest) .. 7; recorded, changes nothing on the CPU device. */
RTS_API rtError_t rtStreamCreate(rtStream_t* stm, int32_t priority);
RTS_API rtError_t rtStreamDestroy(rtStream_t stm);
/* The same as rtStreamDestroy: a CPU stream never has unfinished work to discard. */
RTS_API rtError_t rtStreamDestroyForce(rtStream_t stm);
RTS_API rtError_t rtStreamSynchronize(rtStream_t stm);
/* timeout in milliseconds, -1 (or 0) for no limit. */
RTS_API rtError_t rtStreamSynchronizeWithTimeout(rtStream_t stm, int32_t timeout);

#ifdef __cplusplus
}
#endif

#endif /* OPENACLNN_RUNTIME_STREAM_H_ */
