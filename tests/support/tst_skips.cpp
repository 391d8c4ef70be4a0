// A fixture for RunQtTest.sh, not a test of the product: a suite whose test functions all skip
// (built with NVPG_ALL_SKIP) or that passes one of them.
#include <QtTest>

class TestSkips : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {}
    void needsAGpu() { QSKIP("no GPU here"); }
    void needsATool() {
#ifdef NVPG_ALL_SKIP
        QSKIP("no tool here");
#else
        QVERIFY(true);
#endif
    }
    void cleanupTestCase() {}
};

QTEST_GUILESS_MAIN(TestSkips)
#include "tst_skips.moc"
