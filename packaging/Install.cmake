# What `cmake --install` (and so the .deb) puts beside the two binaries, in the places Debian and
# the freedesktop specs name: the examples the app and nvpg open by name, the doc texts, the
# desktop entry, AppStream metadata, MIME types, icons, and the Debian copyright and changelog.
# The man pages are installed by app/cli/CMakeLists.txt, which generates nvpg.1 from nvpg's
# option table. Nothing installed refers back to the source or build tree: the programs find
# these files from their own location (core/support/Installed.h).
set(NVPG_DATADIR ${CMAKE_INSTALL_DATADIR}/nvvm-playground)
set(NVPG_DOCDIR ${CMAKE_INSTALL_DATADIR}/doc/nvvm-playground)  # Debian's, not CMAKE_INSTALL_DOCDIR's share/doc/<project>
set(linux ${PROJECT_SOURCE_DIR}/packaging/linux)

# The examples with the IR sources they were made from; make_examples.py writes into the
# source tree, so it stays there.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/examples/ DESTINATION ${NVPG_DATADIR}/examples
        PATTERN make_examples.py EXCLUDE PATTERN __pycache__ EXCLUDE)
# The course (File > Lessons, nvpg check), with the sources make_lessons.py builds it from.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/lessons/ DESTINATION ${NVPG_DATADIR}/lessons
        PATTERN make_lessons.py EXCLUDE PATTERN __pycache__ EXCLUDE)
# The script nvpg import numba (and File > Import from numba) runs with the user's Python.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/python/ DESTINATION ${NVPG_DATADIR}/python
        PATTERN __pycache__ EXCLUDE)
# The hover and `nvpg explain` texts. The binaries carry them embedded (core/DocsEmbedded.cpp), so
# nothing reads these at run time; they are installed for people and tools that want the data.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/docs/ DESTINATION ${NVPG_DATADIR}/docs
        FILES_MATCHING PATTERN "*.json" PATTERN "*.md")

# The README and the documentation, which the app's Help shows (app/gui/help/Guide.cpp), with the
# screenshots they show, at the same places relative to each other as in the source tree.
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${NVPG_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${NVPG_DOCDIR}/docs FILES_MATCHING PATTERN "*.md")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/screenshots/ DESTINATION ${NVPG_DOCDIR}/resources/screenshots
        FILES_MATCHING PATTERN "*.png")
install(FILES ${PROJECT_SOURCE_DIR}/packaging/debian/copyright DESTINATION ${NVPG_DOCDIR})
# Debian wants the changelog compressed, reproducibly (no name or time in the gzip header).
set(changelog_gz ${PROJECT_BINARY_DIR}/packaging/changelog.Debian.gz)
add_custom_command(OUTPUT ${changelog_gz}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/packaging
    COMMAND sh -c "gzip -9n < '${PROJECT_SOURCE_DIR}/packaging/debian/changelog' > '${changelog_gz}'"
    DEPENDS ${PROJECT_SOURCE_DIR}/packaging/debian/changelog
    COMMENT "Compressing the Debian changelog" VERBATIM)
add_custom_target(nvpg_changelog ALL DEPENDS ${changelog_gz})
install(FILES ${changelog_gz} DESTINATION ${NVPG_DOCDIR})

if(NVPG_BUILD_GUI)
    install(FILES ${linux}/${NVPG_APP_ID}.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
    install(FILES ${linux}/${NVPG_APP_ID}.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
    install(FILES ${linux}/${NVPG_APP_ID}.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages)
    install(DIRECTORY ${linux}/icons/hicolor DESTINATION ${CMAKE_INSTALL_DATADIR}/icons
            FILES_MATCHING PATTERN "*.png" PATTERN "*.svg")
endif()

# Everything `cmake --install` takes from the build tree: the app command (quickstart.sh app)
# builds this target, so that an install after it finds every file.
add_custom_target(nvpg_installable)
add_dependencies(nvpg_installable nvpg nvpg_man_pages nvpg_changelog)
if(NVPG_BUILD_GUI)
    add_dependencies(nvpg_installable nvvm-playground)
endif()
