# embed_text(<target> <namespace> <symbol> <file> <hint>): compiles the text of <file> into
# <target> as `extern const std::string_view <namespace>::<symbol>`, so that the binary reads
# nothing from disk at run time. <hint> says how to get a missing file (files that npm ships
# are installed by scripts/setup, never committed).
function(embed_text target ns symbol file hint)
  if(NOT EXISTS ${file})
    message(FATAL_ERROR "${file} is missing: ${hint}")
  endif()
  # Read at configure time: a changed file must configure again.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${file})
  file(READ ${file} text)
  string(FIND "${text}" ")EMBEDDED_TEXT\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${file} contains the raw string delimiter of embed_text()")
  endif()
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${target}_${symbol}.cc)
  file(CONFIGURE OUTPUT ${out} CONTENT "// Generated from ${file} by embed_text().
#include <string_view>
namespace ${ns} {
extern const std::string_view ${symbol};
const std::string_view ${symbol} = R\"EMBEDDED_TEXT(@text@)EMBEDDED_TEXT\";
}  // namespace ${ns}
" @ONLY)
  target_sources(${target} PRIVATE ${out})
endfunction()
