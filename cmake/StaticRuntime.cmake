# Links the executables' run-time libraries statically (TOPOLINT_STATIC_RUNTIME).
#
# A pre-commit hook runs `topolint check` once per commit, so the command's
# start-up is most of what it costs there. With shared libraries, the dynamic
# loader maps and relocates libstdc++, libgcc_s, libprotobuf-lite, libre2,
# libz and libfmt before main(): measured 1.1 ms of a 3.0 ms warm check
# (docs/history/performance-diary.md, "The warm check"). With this,
# `topolint` needs only libc and libm.
#
# - protobuf-lite, RE2 and zlib: Debian's archives (lib*.a), when installed.
# - fmt: Debian ships no archive; `topolint_fmt_static` compiles fmt's own
#   implementation header once (checker/runtime/fmt_static.cc).
# - libstdc++ and libgcc: -static-libstdc++ -static-libgcc on `topolint`
#   itself (topolint_static_runtime_options); the test executables keep the
#   shared ones, they are not run per commit.
#
# The shared C API library keeps the shared libraries (Debian's archives are
# not all position-independent). The sanitizer build keeps them too.
#
# topolint_use_static_runtime() creates topolint_static::<name> targets and
# sets TOPOLINT_RUNTIME_STATIC in the caller's scope when it could.
# topolint_executable_deps() maps a list of link dependencies so that each
# of fmt::fmt, PkgConfig::PROTOBUF_LITE, PkgConfig::RE2 and ZLIB::ZLIB (and
# Abseil's) reaches executables as its static form and everything else as
# itself.
function(topolint_use_static_runtime)
  find_package(Threads REQUIRED)
  set(found "")
  set(names "")
  foreach(pair IN ITEMS "PkgConfig::PROTOBUF_LITE=protobuf-lite"
                        "PkgConfig::RE2=re2" "ZLIB::ZLIB=z")
    string(REPLACE "=" ";" pair "${pair}")
    list(GET pair 0 target)
    list(GET pair 1 lib)
    string(MAKE_C_IDENTIFIER "${lib}" id)
    find_library(TOPOLINT_STATIC_${id} NAMES lib${lib}.a)
    if(NOT TOPOLINT_STATIC_${id})
      message(STATUS "Static run time: no lib${lib}.a, the command links ${target} shared")
      continue()
    endif()
    add_library(topolint_static::${id} STATIC IMPORTED GLOBAL)
    set_target_properties(topolint_static::${id} PROPERTIES
      IMPORTED_LOCATION "${TOPOLINT_STATIC_${id}}"
      INTERFACE_LINK_LIBRARIES Threads::Threads)
    foreach(p INTERFACE_INCLUDE_DIRECTORIES INTERFACE_COMPILE_DEFINITIONS
              INTERFACE_COMPILE_OPTIONS)
      get_target_property(v ${target} ${p})
      if(v)
        set_target_properties(topolint_static::${id} PROPERTIES ${p} "${v}")
      endif()
    endforeach()
    list(APPEND found "${target}=topolint_static::${id}")
    list(APPEND names "lib${lib}.a")
  endforeach()

  add_library(topolint_fmt_static STATIC
    ${PROJECT_SOURCE_DIR}/checker/runtime/fmt_static.cc)
  # fmt's headers and definitions only: linking fmt::fmt would bring libfmt.so
  # back (a static library passes on even its private link dependencies).
  target_include_directories(topolint_fmt_static SYSTEM PRIVATE
    $<TARGET_PROPERTY:fmt::fmt,INTERFACE_INCLUDE_DIRECTORIES>)
  target_compile_definitions(topolint_fmt_static PRIVATE
    $<TARGET_PROPERTY:fmt::fmt,INTERFACE_COMPILE_DEFINITIONS>)
  add_library(topolint_static::fmt INTERFACE IMPORTED GLOBAL)
  foreach(p INTERFACE_INCLUDE_DIRECTORIES INTERFACE_COMPILE_DEFINITIONS)
    get_target_property(v fmt::fmt ${p})
    if(v)
      set_target_properties(topolint_static::fmt PROPERTIES ${p} "${v}")
    endif()
  endforeach()
  set_target_properties(topolint_static::fmt PROPERTIES
    INTERFACE_LINK_LIBRARIES topolint_fmt_static)
  list(APPEND found "fmt::fmt=topolint_static::fmt")

  set(TOPOLINT_STATIC_RUNTIME_MAP "${found}" PARENT_SCOPE)
  set(TOPOLINT_RUNTIME_STATIC ON PARENT_SCOPE)
  list(JOIN names ", " names)
  message(STATUS "Static run time: executables link ${names} and fmt's implementation; "
                 "`topolint` also libstdc++ and libgcc")
endfunction()

# Sets `out` to ARGN with each dependency that has a static form for
# executables (absl::X as absl_static::X, StaticAbseil.cmake; the run-time
# libraries of TOPOLINT_STATIC_RUNTIME_MAP) replaced by "the static form
# for executables, itself otherwise (and always when installed)".
function(topolint_executable_deps out)
  set(result "")
  foreach(d IN LISTS ARGN)
    set(static "")
    # (CMAKE_MATCH_1 is read after the match, not in the same if())
    if(TOPOLINT_ABSEIL_STATIC AND d MATCHES "^absl::(.+)$")
      if(TARGET absl_static::${CMAKE_MATCH_1})
        set(static "absl_static::${CMAKE_MATCH_1}")
      endif()
    endif()
    foreach(pair IN LISTS TOPOLINT_STATIC_RUNTIME_MAP)
      if(pair MATCHES "^([^=]+)=(.+)$" AND d STREQUAL CMAKE_MATCH_1)
        set(static "${CMAKE_MATCH_2}")
      endif()
    endforeach()
    if(static)
      list(APPEND result
        "$<BUILD_INTERFACE:$<IF:$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>,${static},${d}>>"
        "$<INSTALL_INTERFACE:${d}>")
    else()
      list(APPEND result "${d}")
    endif()
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# The C++ run time itself, for one executable.
function(topolint_static_runtime_options target)
  if(NOT TOPOLINT_RUNTIME_STATIC OR NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    return()
  endif()
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libstdc++.a
                  OUTPUT_VARIABLE archive OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(IS_ABSOLUTE "${archive}" AND EXISTS "${archive}")
    target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
  endif()
endfunction()
