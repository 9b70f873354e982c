# Whether the Python package (python/) is built by default: when the interpreter it is built for
# (Debian's /usr/bin/python3, not whatever python3 comes first on PATH), that interpreter's headers
# (python3-dev) and pybind11 (pybind11-dev) are there and the command-line tool, whose comparison
# it links, is built. Not in the sanitizer build: a plain python3 does not load ASan's runtime.
set(OPENACLNN_PYTHON /usr/bin/python3 CACHE FILEPATH
    "The Python interpreter the openaclnn package is built for")
set(OPENACLNN_PYTHON_FOUND OFF)
if(EXISTS ${OPENACLNN_PYTHON} AND OPENACLNN_BUILD_TOOLS AND NOT OPENACLNN_SANITIZE)
  execute_process(
    COMMAND ${OPENACLNN_PYTHON} -c "import sysconfig; print(sysconfig.get_paths()['include'])"
    OUTPUT_VARIABLE openaclnn_python_include OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  find_path(OPENACLNN_PYBIND11_INCLUDE_DIR pybind11/pybind11.h)
  if(EXISTS "${openaclnn_python_include}/Python.h" AND OPENACLNN_PYBIND11_INCLUDE_DIR)
    set(OPENACLNN_PYTHON_FOUND ON)
  endif()
endif()
option(OPENACLNN_BUILD_PYTHON
       "Build the Python package (needs pybind11-dev and python3-dev for OPENACLNN_PYTHON)"
       ${OPENACLNN_PYTHON_FOUND})
