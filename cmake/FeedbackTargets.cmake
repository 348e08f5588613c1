# The three kinds of target this project builds, declared the same way everywhere.

# feedback_library(<name> SOURCES <files...> [LIBS <libraries...>])
# A static library of our own code: the repository root on the include path, warnings as
# errors, and its dependencies public so that users link what it links.
function(feedback_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_compile_options(${name} PRIVATE ${FEEDBACK_WARNINGS})
  target_link_libraries(${name} PUBLIC ${ARG_LIBS})
endfunction()

# feedback_tests(<name> SOURCES <files...> LIBS <libraries...>)
# A Catch2 test binary whose test cases CTest lists one by one, prefixed with <name>.
# Nothing when FEEDBACK_TESTS is off (an image's build).
function(feedback_tests name)
  if(NOT FEEDBACK_TESTS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_compile_options(${name} PRIVATE ${FEEDBACK_WARNINGS})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR})
  # Tests of SQL against a scratch database build its schemas from services/*/migrations
  # (tests/unit/support/scratch_database.h).
  target_compile_definitions(${name} PRIVATE SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  target_link_libraries(${name} PRIVATE feedback_catch_main ${ARG_LIBS})
  catch_discover_tests(${name} TEST_PREFIX "${name}: ")
endfunction()

# feedback_service(<name> SOURCES <files...> [LIBS <libraries...>] [MAIN <file>]
#                  [MIGRATIONS <dir>])
# One process: its code as <name>_lib (everything but main), the <name> binary (MAIN,
# default main.cc, linked with jemalloc), its migrations compiled in (namespace feedback::<name>, see
# EmbedMigrations.cmake) and its unit tests, tests/unit/services/<name>/*.cc, as <name>_tests.
function(feedback_service name)
  cmake_parse_arguments(ARG "" "MAIN;MIGRATIONS" "SOURCES;LIBS" ${ARGN})
  if(NOT ARG_MAIN)
    set(ARG_MAIN main.cc)
  endif()
  feedback_library(${name}_lib SOURCES ${ARG_SOURCES} LIBS ${ARG_LIBS})
  if(ARG_MIGRATIONS)
    embed_migrations(${name}_lib feedback::${name} ${CMAKE_CURRENT_SOURCE_DIR}/${ARG_MIGRATIONS})
  endif()
  add_executable(${name} ${ARG_MAIN})
  target_compile_options(${name} PRIVATE ${FEEDBACK_WARNINGS})
  target_link_libraries(${name} PRIVATE ${name}_lib ${JEMALLOC_LIBRARY})
  file(GLOB_RECURSE tests CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/unit/services/${name}/*.cc)
  if(tests)
    feedback_tests(${name}_tests SOURCES ${tests} LIBS ${name}_lib)
  endif()
endfunction()
