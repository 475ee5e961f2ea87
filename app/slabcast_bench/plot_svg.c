/* plot_svg.c - the plot canvas as SVG elements (see plot_canvas.h): one element per call, numbers
 * with the decimals they carry, text escaped, tooltips as <title> children. */
#include "plot_canvas.h"

/* s as XML character data: markup characters and quotes escaped, control bytes and bytes past ASCII
 * as '?'; apostrophe: whether ' is written as &apos; (tooltips) or kept (text, where the legend's
 * words carry one). */
static void write_escaped(FILE *f, const char *s, int apostrophe)
{
    for (; s && *s; ++s) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs(apostrophe ? "&apos;" : "'", f); break;
        default:
            /* Control characters are not allowed in XML 1.0, and a byte past ASCII may not be valid
             * UTF-8 (a file name's): both shown as '?'. */
            fputc((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x80 ? '?' : *s, f);
        }
    }
}

static FILE *svg_file(plot_canvas *c) { return ((plot_svg *)c)->f; }

/* name="value" with a leading space, the value written with its decimals. */
static void svg_attr(FILE *f, const char *name, plot_num n)
{
    if (n.decimals < 0) fprintf(f, " %s=\"%g\"", name, n.v);
    else fprintf(f, " %s=\"%.*f\"", name, n.decimals, n.v);
}

static void svg_number(FILE *f, plot_num n)
{
    if (n.decimals < 0) fprintf(f, "%g", n.v);
    else fprintf(f, "%.*f", n.decimals, n.v);
}

static void svg_line(plot_canvas *c, plot_num x1, plot_num y1, plot_num x2, plot_num y2, const char *color,
                     double width)
{
    FILE *f = svg_file(c);
    fputs("<line", f);
    svg_attr(f, "x1", x1);
    svg_attr(f, "y1", y1);
    svg_attr(f, "x2", x2);
    svg_attr(f, "y2", y2);
    fprintf(f, " stroke=\"%s\"", color);
    if (width != 1.0) fprintf(f, " stroke-width=\"%g\"", width);
    fputs("/>\n", f);
}

static void svg_rect(plot_canvas *c, plot_num x, plot_num y, plot_num w, plot_num h, const char *color)
{
    FILE *f = svg_file(c);
    fputs("<rect", f);
    svg_attr(f, "x", x);
    svg_attr(f, "y", y);
    svg_attr(f, "width", w);
    svg_attr(f, "height", h);
    fprintf(f, " fill=\"%s\"/>\n", color);
}

static void svg_circle(plot_canvas *c, plot_num cx, plot_num cy, plot_num r, const char *color, double opacity,
                       const char *tooltip)
{
    FILE *f = svg_file(c);
    fputs("<circle", f);
    svg_attr(f, "cx", cx);
    svg_attr(f, "cy", cy);
    svg_attr(f, "r", r);
    fprintf(f, " fill=\"%s\"", color);
    if (opacity < 1.0) fprintf(f, " fill-opacity=\"%g\"", opacity);
    if (!tooltip) {
        fputs("/>\n", f);
        return;
    }
    fputs("><title>", f);
    write_escaped(f, tooltip, 1);
    fputs("</title></circle>\n", f);
}

static void svg_text(plot_canvas *c, plot_num x, plot_num y, plot_text_style style, const char *s)
{
    FILE *f = svg_file(c);
    fputs("<text", f);
    svg_attr(f, "x", x);
    svg_attr(f, "y", y);
    if (style.anchor != PLOT_ANCHOR_START)
        fprintf(f, " text-anchor=\"%s\"", style.anchor == PLOT_ANCHOR_MIDDLE ? "middle" : "end");
    fprintf(f, " font-size=\"%d\"", style.size);
    if (style.bold) fputs(" font-weight=\"bold\"", f);
    if (style.upright) {
        fputs(" transform=\"rotate(-90 ", f);
        svg_number(f, x);
        fputc(' ', f);
        svg_number(f, y);
        fputs(")\"", f);
    }
    fputc('>', f);
    write_escaped(f, s, 0);
    fputs("</text>\n", f);
}

static void svg_group_begin(plot_canvas *c, const char *tooltip)
{
    FILE *f = svg_file(c);
    fputs("<g>", f);
    if (tooltip) {
        fputs("<title>", f);
        write_escaped(f, tooltip, 1);
        fputs("</title>", f);
    }
    fputc('\n', f);
}

static void svg_group_end(plot_canvas *c) { fputs("</g>\n", svg_file(c)); }

void plot_svg_begin(plot_svg *s, FILE *f, int width, int height)
{
    s->canvas = (plot_canvas){svg_line, svg_rect, svg_circle, svg_text, svg_group_begin, svg_group_end};
    s->f = f;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
            width, height, width, height);
}

void plot_svg_end(plot_svg *s) { fputs("</svg>\n", s->f); }
