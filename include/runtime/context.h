/* CANN-compatible lower runtime layer: contexts (see runtime/base.h). */
#ifndef OPENACLNN_RUNTIME_CONTEXT_H_
#define OPENACLNN_RUNTIME_CONTEXT_H_

#include "runtime/base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void* rtContext_t;

/* Modes of rtCtxCreate's flags; both make an ordinary context on the CPU device. */
typedef enum tagCtxMode { RT_CTX_NORMAL_MODE = 0, RT_CTX_GEN_MODE = 1 } rtCtxMode_t;

/* Creates a context on device devId and makes it the calling thread's current one. */
RTS_API rtError_t rtCtxCreate(rtContext_t* createCtx, uint32_t flags, int32_t devId);
RTS_API rtError_t rtCtxDestroy(rtContext_t destroyCtx);
RTS_API rtError_t rtCtxSetCurrent(rtContext_t currentCtx);

#ifdef __cplusplus
}
#endif

#endif /* OPENACLNN_RUNTIME_CONTEXT_H_ */
