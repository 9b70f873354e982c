# Installs the SPEC section 1 layout: headers, libopenaclnn.so with the CANN link names
# (OPENACLNN_CANN_LINK_NAMES: libascendcl.so, libnnopbase.so, libopapi.so, libopapi_nn.so,
# libopapi_math.so, libruntime.so), a CMake package and a pkg-config file.
include(CMakePackageConfigHelpers)

set(OPENACLNN_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/openaclnn)

install(TARGETS openaclnn EXPORT openaclnnTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

foreach(cann_name ${OPENACLNN_CANN_LINK_NAMES})
  install(CODE "
    set(lib_dir \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}\")
    message(STATUS \"Installing: \${lib_dir}/lib${cann_name}.so -> libopenaclnn.so\")
    file(CREATE_LINK libopenaclnn.so \"\${lib_dir}/lib${cann_name}.so\" SYMBOLIC)")
endforeach()

install(EXPORT openaclnnTargets NAMESPACE openaclnn:: DESTINATION ${OPENACLNN_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/openaclnnConfig.cmake.in
  ${PROJECT_BINARY_DIR}/openaclnnConfig.cmake INSTALL_DESTINATION ${OPENACLNN_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/openaclnnConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/openaclnnConfig.cmake
              ${PROJECT_BINARY_DIR}/openaclnnConfigVersion.cmake
        DESTINATION ${OPENACLNN_CMAKE_DIR})

# The .pc file locates the prefix from its own place, so `cmake --install --prefix` works.
file(RELATIVE_PATH OPENACLNN_PC_TO_PREFIX "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
configure_file(${PROJECT_SOURCE_DIR}/cmake/openaclnn.pc.in ${PROJECT_BINARY_DIR}/openaclnn.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/openaclnn.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
