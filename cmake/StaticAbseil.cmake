# Links Abseil's static archives into executables.
#
# Debian's libabsl-dev ships both shared libraries and archives, and its
# CMake package imports the shared ones. Loading ~25 Abseil shared libraries
# and relocating them costs more than half of a `topolint check` of a small
# unit (measured: start-up plus a 34 KB unit 8.2 ms -> 4.9 ms). The archives
# are compiled for executables only (their thread-local variables use the
# initial-exec model, which a shared object cannot), so the shared C API
# library keeps the shared Abseil.
#
# topolint_use_static_abseil() creates, for every imported absl::X, a target
# absl_static::X that links X's archive (or, when there is none, X itself),
# with the same usage requirements and its absl:: dependencies mapped to
# absl_static::. It sets TOPOLINT_ABSEIL_STATIC in the caller's scope when
# any archive was found. topolint_executable_deps() (StaticRuntime.cmake)
# then maps a list of link dependencies so that absl::X reaches executables
# as absl_static::X and everything else (libraries, installed exports) as
# absl::X.
function(topolint_use_static_abseil)
  get_directory_property(imported IMPORTED_TARGETS)
  set(archives 0)
  foreach(t IN LISTS imported)
    if(NOT t MATCHES "^absl::(.+)$")
      continue()
    endif()
    set(s "absl_static::${CMAKE_MATCH_1}")
    get_target_property(type ${t} TYPE)
    set(archive "")
    if(type STREQUAL "SHARED_LIBRARY")
      get_target_property(configs ${t} IMPORTED_CONFIGURATIONS)
      foreach(c IN LISTS configs)
        string(TOUPPER "${c}" c)
        get_target_property(location ${t} IMPORTED_LOCATION_${c})
        if(location)
          break()
        endif()
      endforeach()
      if(NOT location)
        get_target_property(location ${t} IMPORTED_LOCATION)
      endif()
      string(REGEX REPLACE "\\.so(\\.[0-9.]+)?$" ".a" candidate "${location}")
      if(location AND NOT candidate STREQUAL location AND EXISTS "${candidate}")
        set(archive "${candidate}")
      endif()
    endif()
    if(archive)
      add_library(${s} STATIC IMPORTED)
      set_target_properties(${s} PROPERTIES IMPORTED_LOCATION "${archive}")
      math(EXPR archives "${archives} + 1")
    else()
      add_library(${s} INTERFACE IMPORTED)
    endif()
    foreach(p INTERFACE_INCLUDE_DIRECTORIES INTERFACE_COMPILE_DEFINITIONS
              INTERFACE_COMPILE_OPTIONS INTERFACE_COMPILE_FEATURES)
      get_target_property(v ${t} ${p})
      if(v)
        set_target_properties(${s} PROPERTIES ${p} "${v}")
      endif()
    endforeach()
    get_target_property(deps ${t} INTERFACE_LINK_LIBRARIES)
    if(NOT deps)
      set(deps "")
    endif()
    if(archive OR type STREQUAL "INTERFACE_LIBRARY")
      string(REPLACE "absl::" "absl_static::" deps "${deps}")
    else()
      set(deps "${t}")  # no archive: the shared library itself
    endif()
    set_target_properties(${s} PROPERTIES INTERFACE_LINK_LIBRARIES "${deps}")
  endforeach()
  message(STATUS "Abseil: executables link ${archives} static archives")
  if(archives GREATER 0)
    set(TOPOLINT_ABSEIL_STATIC ON PARENT_SCOPE)
  endif()
endfunction()
