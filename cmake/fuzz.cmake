# libFuzzer targets (tests/fuzz/). They need clang and the sanitizers: every object of the build
# gets libFuzzer's coverage instrumentation on top of ASan + UBSan, so the one sanitizer build
# serves the tests and the fuzzers (only the fuzz executables link libFuzzer itself).
option(OPENACLNN_BUILD_FUZZERS
       "Build the libFuzzer targets (needs clang and OPENACLNN_SANITIZE=ON)" OFF)
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
