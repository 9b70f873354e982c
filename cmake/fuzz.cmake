# The fuzz targets (tests/fuzz/) are in every sanitizer build. OPENACLNN_BUILD_FUZZERS makes them
# libFuzzer's coverage-guided fuzzers (scripts/fuzz.sh): it needs clang, and every object of the
# build gets libFuzzer's coverage instrumentation on top of ASan + UBSan (only the fuzz executables
# link libFuzzer itself). Without it they replay their corpus and random changes of it.
option(OPENACLNN_BUILD_FUZZERS
       "Build the fuzz targets with libFuzzer (needs clang and OPENACLNN_SANITIZE=ON)" OFF)
set(OPENACLNN_FUZZ_SECONDS 20 CACHE STRING
    "Seconds each fuzz target runs as a test (ctest -L fuzz)")
if(OPENACLNN_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "OPENACLNN_BUILD_FUZZERS needs clang (libFuzzer): configure with "
                        "-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++")
  endif()
  if(NOT OPENACLNN_SANITIZE)
    message(FATAL_ERROR "OPENACLNN_BUILD_FUZZERS needs OPENACLNN_SANITIZE=ON")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
