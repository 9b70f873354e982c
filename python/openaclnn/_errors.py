"""openaclnn.Error: what the library returned when a call failed."""


class Error(Exception):
    """A failed aclnn call: .code is the aclnn code (161001 a null argument, 161002 an invalid one,
    561xxx an internal error, ...), .api the function that returned it, .message the library's
    message (what aclGetRecentErrMsg() gives)."""

    def __init__(self, code, message, api):
        super().__init__(code, message, api)
        self.code = code
        self.message = message
        self.api = api

    def __str__(self):
        return "%s failed with %d: %s" % (self.api, self.code, self.message)


Error.__module__ = "openaclnn"  # as the package exports it
