# pytest configuration of the package's tests: Hypothesis keeps no example database (the tests run
# from the build tree) and runs few examples, so the whole suite stays a few seconds.
from hypothesis import HealthCheck, settings

settings.register_profile("openaclnn", database=None, deadline=None, max_examples=40,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("openaclnn")
