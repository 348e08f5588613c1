# embed_migrations(<target> <namespace> <dir>): compiles <dir>/NNN_name.sql into <target> as
# `std::vector<feedback::Migration> <namespace>::migrations()`, so that a container with a
# read-only root filesystem carries its schema inside the binary.
function(embed_migrations target ns dir)
  file(GLOB files CONFIGURE_DEPENDS ${dir}/*.sql)
  list(SORT files)
  # The SQL is read here, at configure time: a changed file must configure again.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${files})
  set(entries "")
  foreach(f ${files})
    get_filename_component(name ${f} NAME)
    string(REGEX MATCH "^[0-9]+" version ${name})
    math(EXPR version "${version}")
    file(READ ${f} sql)
    string(APPEND entries "      {${version}, \"${name}\", R\"MIGRATION_SQL(${sql})MIGRATION_SQL\"},\n")
  endforeach()
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${target}_migrations.cc)
  file(CONFIGURE OUTPUT ${out} CONTENT "// Generated from ${dir} by embed_migrations().
#include <vector>
#include \"common/pg/migrations.h\"
namespace ${ns} {
std::vector<feedback::Migration> migrations() {
  return {
${entries}  };
}
}  // namespace ${ns}
")
  target_sources(${target} PRIVATE ${out})
endfunction()
