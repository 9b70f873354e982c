/* Shared definitions of the aclnn operator headers. */
#ifndef OPENACLNN_ACLNNOP_ACLNN_UTIL_H_
#define OPENACLNN_ACLNNOP_ACLNN_UTIL_H_

#include "aclnn/aclnn_base.h"

#ifndef ACLNN_API
#define ACLNN_API __attribute__((visibility("default")))
#endif

#endif /* OPENACLNN_ACLNNOP_ACLNN_UTIL_H_ */
