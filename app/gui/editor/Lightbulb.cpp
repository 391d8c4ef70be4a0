#include "gui/editor/Lightbulb.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace nvpg::gui {

QImage lightbulbImage(const QColor& severity, int size) {
    QImage img(size, size, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::transparent);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    const double s = size / 14.0;
    // The glass: a circle narrowing into the neck, then the screw base.
    QPainterPath glass;
    glass.addEllipse(QRectF(2.5 * s, 0.5 * s, 9 * s, 9 * s));
    glass.addRect(QRectF(4.8 * s, 7.5 * s, 4.4 * s, 2.5 * s));
    p.setPen(QPen(QColor(0x9a, 0x74, 0x00), 1.0 * s));
    p.setBrush(QColor(0xff, 0xd5, 0x3d));
    p.drawPath(glass.simplified());
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0x6b, 0x6b, 0x6b));
    p.drawRoundedRect(QRectF(4.8 * s, 10.2 * s, 4.4 * s, 1.4 * s), 0.5 * s, 0.5 * s);
    p.drawRoundedRect(QRectF(5.4 * s, 12.0 * s, 3.2 * s, 1.4 * s), 0.5 * s, 0.5 * s);
    if (severity.isValid()) {
        p.setBrush(severity);
        p.setPen(QPen(Qt::white, 0.8 * s));
        p.drawEllipse(QRectF(9.0 * s, 8.6 * s, 5.0 * s, 5.0 * s));
    }
    return img;
}

QIcon lightbulbIcon() {
    // Drawn once: a reply with a hundred fixes asked for it a hundred times (4 images each, 40 ms
    // of the UI thread for 85 problems). Never freed, so it does not outlive the application's
    // pixmap machinery in a destructor.
    static const QIcon* const icon = [] {
        auto* made = new QIcon;
        for (int size : {14, 16, 24, 32}) made->addPixmap(QPixmap::fromImage(lightbulbImage({}, size)));
        return made;
    }();
    return *icon;
}

}  // namespace nvpg::gui
