# The C API shared library, installation, and the CMake package
# (find_package(topolint)). Included at the end of the top-level
# CMakeLists.txt, so every library target already exists.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TOPOLINT_LIBRARY_TARGETS
    topolint_io topolint_diag topolint_json topolint_hlo topolint_neff
    topolint_config topolint_model topolint_rules topolint_core)

# Version() of the C++ API.
set_property(SOURCE ${PROJECT_SOURCE_DIR}/checker/api/api.cc APPEND PROPERTY
             COMPILE_DEFINITIONS TOPOLINT_VERSION="${PROJECT_VERSION}")

# --- libtopolint_c.so: the C API (include/topolint/topolint_c.h) ----------
# Only the C functions are exported (cmake/topolint_c.map), so that FFI users
# (Python ctypes) can load it next to anything else.
add_library(topolint_c SHARED ${PROJECT_SOURCE_DIR}/checker/api/c_api.cc)
target_link_libraries(topolint_c PRIVATE topolint_core)
target_include_directories(topolint_c PUBLIC
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
set(TOPOLINT_C_MAP ${PROJECT_SOURCE_DIR}/cmake/topolint_c.map)
target_link_options(topolint_c PRIVATE "LINKER:--version-script=${TOPOLINT_C_MAP}")
if(NOT (TOPOLINT_SANITIZE AND CMAKE_CXX_COMPILER_ID MATCHES "Clang"))
  # clang links its sanitizer runtimes into executables only: a sanitized
  # shared library takes them from the process (an executable, or the
  # runtime preloaded into python3), so it must allow undefined symbols.
  target_link_options(topolint_c PRIVATE "LINKER:--no-undefined")
endif()
set_target_properties(topolint_c PROPERTIES
  LINK_DEPENDS ${TOPOLINT_C_MAP}
  VERSION ${PROJECT_VERSION}
  SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
  LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})

# A sanitizer build's static libraries need the sanitizer runtime in every
# program that links them, including those built against the installed
# package.
if(TOPOLINT_SANITIZE)
  set_property(TARGET topolint_io topolint_c APPEND PROPERTY INTERFACE_LINK_OPTIONS
               -fsanitize=address,undefined)
endif()

# --- What the integration and API tests need to know about this build -----
foreach(t IN ITEMS topolint_integration_tests topolint_api_tests)
  if(NOT TARGET ${t})
    continue()
  endif()
  add_dependencies(${t} topolint_c)
  target_compile_definitions(${t} PRIVATE
    TOPOLINT_BUILD_DIR="${PROJECT_BINARY_DIR}"
    TOPOLINT_C_LIBRARY="$<TARGET_FILE:topolint_c>"
    TOPOLINT_CMAKE_COMMAND="${CMAKE_COMMAND}"
    TOPOLINT_CMAKE_GENERATOR="${CMAKE_GENERATOR}"
    TOPOLINT_CXX_COMPILER="${CMAKE_CXX_COMPILER}"
    TOPOLINT_C_COMPILER="${CMAKE_C_COMPILER}"
    TOPOLINT_SANITIZE_BUILD=$<BOOL:${TOPOLINT_SANITIZE}>
    TOPOLINT_SANITIZER_RUNTIME="$<IF:$<CXX_COMPILER_ID:Clang>,libclang_rt.asan-x86_64.so,libasan.so>")
endforeach()

# --- Installation ----------------------------------------------------------
set(TOPOLINT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/topolint)

install(TARGETS topolint EXPORT topolintTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS ${TOPOLINT_LIBRARY_TARGETS} EXPORT topolintTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS topolint_c EXPORT topolintTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The public headers are self-contained (standard library only); the
# engine's headers under checker/ are not part of the installed API.
install(FILES ${PROJECT_SOURCE_DIR}/include/topolint/topolint.h
              ${PROJECT_SOURCE_DIR}/include/topolint/topolint_c.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/topolint)
install(FILES ${PROJECT_SOURCE_DIR}/docs/integration.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR} OPTIONAL)

# The bash and zsh completions and the manual page: printed by the command
# itself from its flag table (`topolint completion bash|zsh`, `topolint
# man`; checker/cli/flag_table.h), so they cannot drift from what it
# accepts, and a user with only the binary can write them too. Not when
# cross-compiling: the command cannot run here.
if(NOT CMAKE_CROSSCOMPILING)
  set(_topolint_share ${PROJECT_BINARY_DIR}/share)
  set(_topolint_shell_files)
  foreach(_gen IN ITEMS "completion|bash|topolint.bash" "completion|zsh|_topolint"
                        "man||topolint.1")
    string(REPLACE "|" ";" _gen "${_gen}")
    list(GET _gen 0 _arg1)
    list(GET _gen 1 _arg2)
    list(GET _gen 2 _file)
    add_custom_command(
      OUTPUT ${_topolint_share}/${_file}
      COMMAND ${CMAKE_COMMAND} -DBINARY=$<TARGET_FILE:topolint> -DARG1=${_arg1}
              -DARG2=${_arg2} -DOUT=${_topolint_share}/${_file}
              -P ${PROJECT_SOURCE_DIR}/cmake/RunToFile.cmake
      DEPENDS topolint ${PROJECT_SOURCE_DIR}/cmake/RunToFile.cmake
      COMMENT "Writing ${_file} (topolint ${_arg1} ${_arg2})" VERBATIM)
    list(APPEND _topolint_shell_files ${_topolint_share}/${_file})
  endforeach()
  add_custom_target(topolint_shell_files ALL DEPENDS ${_topolint_shell_files})
  install(FILES ${_topolint_share}/topolint.bash
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
          RENAME topolint)
  install(FILES ${_topolint_share}/_topolint
          DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
  install(FILES ${_topolint_share}/topolint.1
          DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

install(EXPORT topolintTargets NAMESPACE topolint::
        DESTINATION ${TOPOLINT_CMAKE_DIR} FILE topolintTargets.cmake)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/topolintConfig.cmake.in
  ${PROJECT_BINARY_DIR}/topolintConfig.cmake
  INSTALL_DESTINATION ${TOPOLINT_CMAKE_DIR})
# 0.x: a new minor version may change the API.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/topolintConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/topolintConfig.cmake
              ${PROJECT_BINARY_DIR}/topolintConfigVersion.cmake
        DESTINATION ${TOPOLINT_CMAKE_DIR})

# --- The C API's version macros, pkg-config file and the Python package ----
# topolint_c.h's TOPOLINT_VERSION_STRING must be the project version.
file(STRINGS ${PROJECT_SOURCE_DIR}/include/topolint/topolint_c.h
     _topolint_version_line REGEX "^#define TOPOLINT_VERSION_STRING ")
if(NOT _topolint_version_line MATCHES "\"${PROJECT_VERSION}\"")
  message(FATAL_ERROR "include/topolint/topolint_c.h: TOPOLINT_VERSION_* "
          "(${_topolint_version_line}) differ from the project version "
          "${PROJECT_VERSION}")
endif()

# ${pcfiledir} is <prefix>/<libdir>/pkgconfig: the way back up to <prefix>.
set(TOPOLINT_PC_UP "..")
string(REPLACE "/" ";" _topolint_libdir_parts "${CMAKE_INSTALL_LIBDIR}")
foreach(_part IN LISTS _topolint_libdir_parts)
  string(APPEND TOPOLINT_PC_UP "/..")
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/cmake/topolint_c.pc.in
               ${PROJECT_BINARY_DIR}/topolint_c.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/topolint_c.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The Python package (python/topolint), next to the interpreter's other
# packages under the prefix: lib/python3.X/dist-packages for Debian's
# python3 (its default scheme is posix_local), site-packages otherwise.
# _install.py tells the package where the library and the command are,
# relative to itself, so the installed tree can be moved.
option(TOPOLINT_INSTALL_PYTHON "Install the topolint Python package" ON)
if(TOPOLINT_INSTALL_PYTHON)
  find_package(Python3 COMPONENTS Interpreter)
endif()
if(TOPOLINT_INSTALL_PYTHON AND Python3_Interpreter_FOUND)
  execute_process(
    COMMAND ${Python3_EXECUTABLE} -c
      "import sys, sysconfig; d = 'dist-packages' if sysconfig.get_default_scheme() == 'posix_local' else 'site-packages'; print('lib/python%d.%d/%s' % (sys.version_info[0], sys.version_info[1], d))"
    OUTPUT_VARIABLE _topolint_pydir OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(TOPOLINT_PYTHON_DIR "${_topolint_pydir}" CACHE STRING
      "Where `cmake --install` puts the Python package, relative to the prefix")
  file(RELATIVE_PATH _topolint_py_lib "/p/${TOPOLINT_PYTHON_DIR}/topolint"
       "/p/${CMAKE_INSTALL_LIBDIR}/libtopolint_c.so.${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}")
  file(RELATIVE_PATH _topolint_py_bin "/p/${TOPOLINT_PYTHON_DIR}/topolint"
       "/p/${CMAKE_INSTALL_BINDIR}/topolint")
  file(WRITE ${PROJECT_BINARY_DIR}/python/_install.py
       "# Written by cmake --install: paths relative to this package.\n"
       "LIBRARY = \"${_topolint_py_lib}\"\n"
       "BINARY = \"${_topolint_py_bin}\"\n"
       "VERSION = \"${PROJECT_VERSION}\"\n")
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/topolint
          DESTINATION ${TOPOLINT_PYTHON_DIR}
          FILES_MATCHING PATTERN "*.py" PATTERN "py.typed"
          PATTERN "__pycache__" EXCLUDE)
  install(FILES ${PROJECT_BINARY_DIR}/python/_install.py
          DESTINATION ${TOPOLINT_PYTHON_DIR}/topolint)
endif()

# The Python tests (tests/python) run the package from the source tree
# against this build's library and command. Not in a sanitized build: its
# library needs the sanitizer runtimes, which the interpreter does not load.
if(TOPOLINT_BUILD_TESTS AND Python3_Interpreter_FOUND AND NOT TOPOLINT_SANITIZE)
  add_test(NAME python.PackageTest
           COMMAND ${Python3_EXECUTABLE} -m unittest discover -v
                   -s ${PROJECT_SOURCE_DIR}/tests/python -p "*_test.py")
  set_tests_properties(python.PackageTest PROPERTIES
    ENVIRONMENT "PYTHONPATH=${PROJECT_SOURCE_DIR}/python;TOPOLINT_LIBRARY=$<TARGET_FILE:topolint_c>;TOPOLINT_BINARY=$<TARGET_FILE:topolint>;TOPOLINT_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
endif()
