package demo

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"strconv"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"agora/app/seed"
)

// The chart's canvas and palette: a light card with one accent colour, so
// that every demo image looks like it came from the same slide deck.
const (
	chartW, chartH = 960, 540
	marginX        = 72
	plotTop        = 110
	plotBottom     = chartH - 70
)

var (
	background = color.RGBA{0xfa, 0xfb, 0xfc, 0xff}
	ink        = color.RGBA{0x1f, 0x29, 0x37, 0xff}
	muted      = color.RGBA{0x6b, 0x72, 0x80, 0xff}
	gridline   = color.RGBA{0xe5, 0xe7, 0xeb, 0xff}
	accent     = color.RGBA{0x25, 0x63, 0xeb, 0xff}
	accentFill = color.NRGBA{0x25, 0x63, 0xeb, 0x30}
)

// faces are the chart's fonts, parsed once: the Go fonts are embedded in
// their packages, so drawing needs no file of the machine.
var (
	titleFace, smallTitleFace = mustFace(gobold.TTF, 28), mustFace(gobold.TTF, 21)
	labelFace                 = mustFace(goregular.TTF, 17)
)

func mustFace(ttf []byte, size float64) font.Face {
	f, err := opentype.Parse(ttf)
	if err != nil {
		panic(err) // the embedded fonts always parse
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(err)
	}
	return face
}

// drawChart renders c as a PNG: its caption as the title, a light grid,
// and bars or a line with a value label at each point.
func drawChart(c seed.Chart) ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, chartW, chartH))
	draw.Draw(img, img.Bounds(), &image.Uniform{background}, image.Point{}, draw.Src)
	title := titleFace
	if font.MeasureString(title, c.Caption).Ceil() > chartW-2*marginX {
		title = smallTitleFace // a long caption still fits on one line
	}
	text(img, title, ink, marginX, 62, c.Caption)

	top, steps := niceMax(c.Values)
	y := func(v float64) float32 {
		return float32(plotBottom) - float32(v/top)*float32(plotBottom-plotTop)
	}
	for i := 0; i <= steps; i++ {
		v := top * float64(i) / float64(steps)
		fill(img, rect(marginX, y(v), chartW-marginX, y(v)+1), gridline)
		text(img, labelFace, muted, 18, int(y(v))+6, number(v))
	}

	n := len(c.Values)
	slot := float32(chartW-2*marginX) / float32(n)
	mid := func(i int) float32 { return float32(marginX) + slot*(float32(i)+0.5) }
	switch c.Kind {
	case "line":
		area, line := &vector.Rasterizer{}, &vector.Rasterizer{}
		area.Reset(chartW, chartH)
		area.MoveTo(mid(0), float32(plotBottom))
		for i, v := range c.Values {
			area.LineTo(mid(i), y(v))
		}
		area.LineTo(mid(n-1), float32(plotBottom))
		area.ClosePath()
		area.Draw(img, img.Bounds(), &image.Uniform{accentFill}, image.Point{})
		line.Reset(chartW, chartH)
		for i := 1; i < n; i++ {
			stroke(line, mid(i-1), y(c.Values[i-1]), mid(i), y(c.Values[i]), 2.5)
		}
		line.Draw(img, img.Bounds(), &image.Uniform{accent}, image.Point{})
		for i, v := range c.Values {
			fill(img, rect(mid(i)-5, y(v)-5, mid(i)+5, y(v)+5), accent)
		}
	default: // bars
		for i, v := range c.Values {
			w := slot * 0.6
			fill(img, rect(mid(i)-w/2, y(v), mid(i)+w/2, float32(plotBottom)), accent)
		}
	}
	for i, v := range c.Values {
		label := number(v)
		adv := font.MeasureString(labelFace, label).Ceil()
		text(img, labelFace, ink, int(mid(i))-adv/2, int(y(v))-12, label)
	}
	fill(img, rect(marginX, float32(plotBottom), chartW-marginX, float32(plotBottom)+2), muted)

	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, fmt.Errorf("demo: chart: %w", err)
	}
	return b.Bytes(), nil
}

// niceMax is the top of the value axis and its number of grid steps: the
// largest value rounded up to 1, 2, 2.5 or 5 times a power of ten, cut in
// steps that keep the grid's labels round.
func niceMax(values []float64) (float64, int) {
	hi := 0.0
	for _, v := range values {
		hi = math.Max(hi, v)
	}
	if hi <= 0 {
		return 1, 4
	}
	p := math.Pow(10, math.Floor(math.Log10(hi)))
	for _, n := range []struct {
		m     float64
		steps int
	}{{1, 4}, {2, 4}, {2.5, 5}, {5, 5}} {
		if n.m*p >= hi*1.05 {
			return n.m * p, n.steps
		}
	}
	return 10 * p, 5
}

func number(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func rect(x0, y0, x1, y1 float32) image.Rectangle {
	return image.Rect(int(x0), int(y0), int(x1), int(y1))
}

func fill(img draw.Image, r image.Rectangle, c color.Color) {
	draw.Draw(img, r, &image.Uniform{c}, image.Point{}, draw.Over)
}

// stroke adds a line segment of width w to r as a thin quadrilateral.
func stroke(r *vector.Rasterizer, x0, y0, x1, y1, w float32) {
	dx, dy := x1-x0, y1-y0
	l := float32(math.Hypot(float64(dx), float64(dy)))
	nx, ny := -dy/l*w/2, dx/l*w/2
	r.MoveTo(x0+nx, y0+ny)
	r.LineTo(x1+nx, y1+ny)
	r.LineTo(x1-nx, y1-ny)
	r.LineTo(x0-nx, y0-ny)
	r.ClosePath()
}

func text(img draw.Image, face font.Face, c color.Color, x, y int, s string) {
	d := font.Drawer{Dst: img, Src: &image.Uniform{c}, Face: face, Dot: fixed.P(x, y)}
	d.DrawString(s)
}
