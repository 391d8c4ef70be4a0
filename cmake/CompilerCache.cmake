# ccache, when it is installed (an accelerator, never a requirement; NVPG_CCACHE=OFF turns it
# off). Its cache is the user's (CCACHE_DIR, else ccache's own default, ~/.cache/ccache), and the
# clone's path is kept out of every key, so that a clean clone in another folder hits what an
# earlier clone compiled: paths under the source tree are made relative (base_dir), the working
# directory is not hashed (hash_dir), and the debug info names the tree as "." instead of its path.
option(NVPG_CCACHE "Compile through ccache when it is installed" ON)
if(NVPG_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
    find_program(NVPG_CCACHE_PROGRAM ccache)
    if(NVPG_CCACHE_PROGRAM)
        set(launcher ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} CCACHE_NOHASHDIR=1
                     CCACHE_SLOPPINESS=pch_defines,time_macros
                     ${NVPG_CCACHE_PROGRAM})
        set(CMAKE_C_COMPILER_LAUNCHER ${launcher})
        set(CMAKE_CXX_COMPILER_LAUNCHER ${launcher})
        add_compile_options(-fdebug-prefix-map=${PROJECT_SOURCE_DIR}=.)
        message(STATUS "Compiling through ${NVPG_CCACHE_PROGRAM}")
    endif()
endif()
