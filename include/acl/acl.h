/* The CANN ACL umbrella header: base types and the runtime. */
#ifndef OPENACLNN_ACL_ACL_H_
#define OPENACLNN_ACL_ACL_H_

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#endif /* OPENACLNN_ACL_ACL_H_ */
