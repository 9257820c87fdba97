# Third-party targets for Reconcile Lab, native and Emscripten. All come from Debian:
#   native:     binary packages (nlohmann-json3-dev, libyaml-cpp-dev, googletest, libbenchmark-dev);
#   Emscripten: source packages unpacked by scripts/setup.sh into .deps/src/{yaml-cpp,imgui},
#               plus a copy of nlohmann's headers in .deps/include (emcc never sees /usr/include).
# Targets: rlab::json, rlab::quickjs (cmake/QuickJS.cmake), rlab::yaml, and (Emscripten, when its source is present) rlab::imgui.
# Function: rlab_wasm_node_executable(target) for the Node-run WebAssembly CLI.
#
# Third-party code is compiled with -w: the top level adds -Wall -Wextra -Werror to every target,
# and warnings in code we do not own must not break the build. Their include directories are
# SYSTEM, so their headers do not raise warnings in our code either.

set(RLAB_DEPS_DIR ${PROJECT_SOURCE_DIR}/.deps)

# ---- rlab::json (nlohmann_json) -----------------------------------------------------------------
add_library(rlab_json INTERFACE)
if(EMSCRIPTEN)
  if(NOT EXISTS ${RLAB_DEPS_DIR}/include/nlohmann/json.hpp)
    message(FATAL_ERROR "${RLAB_DEPS_DIR}/include/nlohmann is missing: run scripts/setup.sh")
  endif()
  target_include_directories(rlab_json SYSTEM INTERFACE ${RLAB_DEPS_DIR}/include)
else()
  find_package(nlohmann_json 3.10 REQUIRED)
  target_link_libraries(rlab_json INTERFACE nlohmann_json::nlohmann_json)
endif()
add_library(rlab::json ALIAS rlab_json)

# ---- rlab::quickjs (the JavaScript engine core/js embeds) ---------------------------------------
include(${CMAKE_CURRENT_LIST_DIR}/QuickJS.cmake)

# ---- rlab::yaml (yaml-cpp) ----------------------------------------------------------------------
if(EMSCRIPTEN)
  set(RLAB_YAML_SRC ${RLAB_DEPS_DIR}/src/yaml-cpp)
  if(NOT EXISTS ${RLAB_YAML_SRC}/include/yaml-cpp/yaml.h)
    message(FATAL_ERROR "${RLAB_YAML_SRC} is missing: run scripts/setup.sh")
  endif()
  file(GLOB rlab_yaml_srcs ${RLAB_YAML_SRC}/src/*.cpp ${RLAB_YAML_SRC}/src/contrib/*.cpp)
  add_library(rlab_yaml STATIC ${rlab_yaml_srcs})
  target_include_directories(rlab_yaml SYSTEM PUBLIC ${RLAB_YAML_SRC}/include)
  target_include_directories(rlab_yaml PRIVATE ${RLAB_YAML_SRC}/src)
  target_compile_options(rlab_yaml PRIVATE ${RLAB_WASM_EH_FLAG} ${RLAB_EXCEPTIONS_BACK_ON} -w
                                           -Wno-error)
  # 31 small files that each parse the same standard headers: compiled in unity batches (CMake's
  # default 8 files each) they cost less CPU (docs/development.md, "Build time").
  set_target_properties(rlab_yaml PROPERTIES UNITY_BUILD ON)
else()
  find_package(yaml-cpp REQUIRED)  # Debian's 0.7.0 config exports the plain target `yaml-cpp`
  add_library(rlab_yaml INTERFACE)
  if(TARGET yaml-cpp::yaml-cpp)
    target_link_libraries(rlab_yaml INTERFACE yaml-cpp::yaml-cpp)
  else()
    target_link_libraries(rlab_yaml INTERFACE yaml-cpp)
  endif()
endif()
add_library(rlab::yaml ALIAS rlab_yaml)

# ---- rlab::imgui (Emscripten only; Dear ImGui from Debian's "+ds" source package) --------------
# The +ds tree keeps imgui*.cpp, backends/ and misc/cpp (imgui_stdlib) but drops misc/fonts: the
# default ProggyClean font is compiled into imgui_draw.cpp; other fonts belong in assets/.
# Under __EMSCRIPTEN__ the OpenGL3 backend selects GLES2/WebGL1 unless IMGUI_IMPL_OPENGL_ES3 is
# defined; the web app chooses (and adds -sMAX_WEBGL_VERSION=2 if it wants WebGL2).
set(RLAB_IMGUI_SRC ${RLAB_DEPS_DIR}/src/imgui)
if(EMSCRIPTEN AND EXISTS ${RLAB_IMGUI_SRC}/imgui.cpp)
  add_library(rlab_imgui STATIC
    ${RLAB_IMGUI_SRC}/imgui.cpp
    ${RLAB_IMGUI_SRC}/imgui_draw.cpp
    ${RLAB_IMGUI_SRC}/imgui_tables.cpp
    ${RLAB_IMGUI_SRC}/imgui_widgets.cpp
    ${RLAB_IMGUI_SRC}/imgui_demo.cpp
    ${RLAB_IMGUI_SRC}/misc/cpp/imgui_stdlib.cpp
    ${RLAB_IMGUI_SRC}/backends/imgui_impl_glfw.cpp
    ${RLAB_IMGUI_SRC}/backends/imgui_impl_opengl3.cpp)
  target_include_directories(rlab_imgui SYSTEM PUBLIC
    ${RLAB_IMGUI_SRC} ${RLAB_IMGUI_SRC}/backends ${RLAB_IMGUI_SRC}/misc/cpp)
  # emcc 3.1.6 ships GLFW's headers in its sysroot and warns "linker setting ignored during
  # compilation" for -sUSE_GLFW=3 at compile time (an error under -Werror), so consumers get it
  # only as a link option; imgui's own sources (built with -w) get both.
  target_compile_options(rlab_imgui PRIVATE -w -Wno-error -sUSE_GLFW=3)
  target_link_options(rlab_imgui INTERFACE -sUSE_GLFW=3)
  add_library(rlab::imgui ALIAS rlab_imgui)
endif()

# ---- rlab_wasm_node_executable(target) ----------------------------------------------------------
# Makes an Emscripten executable runnable as `node --no-experimental-fetch <build>/<target>.js ARGS`
# with the host file system (NODERAWFS: relative paths resolve against the process's cwd), exit
# codes passed through (EXIT_RUNTIME), and C++ exceptions catchable (the YAML decoder needs them:
# the top level's RLAB_WASM_EH flag, at compile and link, selects the scheme).
# Output: ${CMAKE_BINARY_DIR}/<target>.js and .wasm (never .html).
function(rlab_wasm_node_executable target)
  if(NOT EMSCRIPTEN)
    return()
  endif()
  target_link_options(${target} PRIVATE
    -sNODERAWFS=1
    -sALLOW_MEMORY_GROWTH=1
    -sEXIT_RUNTIME=1
    -sENVIRONMENT=node)
  set_target_properties(${target} PROPERTIES
    SUFFIX ".js"
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
endfunction()
