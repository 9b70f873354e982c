/* CANN-compatible lower runtime layer: everything of it that openaclnn provides (see
   runtime/base.h). */
#ifndef OPENACLNN_RUNTIME_RT_H_
#define OPENACLNN_RUNTIME_RT_H_

#include "runtime/base.h"
#include "runtime/context.h"
#include "runtime/dev.h"
#include "runtime/mem.h"
#include "runtime/stream.h"

#endif /* OPENACLNN_RUNTIME_RT_H_ */
