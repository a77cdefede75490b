import { PNG } from 'pngjs';

/**
 * Small, real PNGs for the demo tickets, drawn at seed time so the repo ships no binaries: a soft two-colour
 * gradient with a "screenshot" card in the middle, different for every ticket.
 */
export function demoTicketImage(seed: number, width = 160, height = 100): Buffer {
  const png = new PNG({ width, height });
  const hueA = (seed * 47) % 360;
  const hueB = (hueA + 40) % 360;
  const [a, b] = [hsl(hueA, 0.55, 0.62), hsl(hueB, 0.6, 0.45)];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x + y) / (width + height);
      const inCard = x > width * 0.2 && x < width * 0.8 && y > height * 0.22 && y < height * 0.78;
      const line = inCard && y % 12 < 3 && x < width * (0.45 + ((y * seed) % 30) / 100);
      const i = (width * y + x) << 2;
      const rgb = inCard ? (line ? [90, 96, 110] : [250, 250, 252]) : a.map((v, k) => Math.round(v * (1 - t) + b[k] * t));
      png.data[i] = rgb[0];
      png.data[i + 1] = rgb[1];
      png.data[i + 2] = rgb[2];
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

function hsl(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const f = (n: number) => l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return [Math.round(255 * f(0)), Math.round(255 * f(8)), Math.round(255 * f(4))];
}
