import { TEMPLATE_FILTER_NAMES } from '@flashbooth/contracts/rules';
import type { Sharp } from 'sharp';

/**
 * Photo filters a template slot may name (the list lives in the shared contracts, so the
 * template editor offers exactly these). The server stores the filter as free text, so the
 * booth matches it case-insensitively and prints anything else unfiltered (see `knownFilter`).
 *
 * Every filter is one affine colour transform, out = M·rgb + b, built from the usual steps
 * (sepia, saturation, contrast, channel gains) and applied as one sharp `recomb` plus one
 * `linear`, after the resize, on the slot-sized image. Measured on the booth's CPU that costs
 * ~25 ms a slot, where `modulate` (a round trip through LCh) or `greyscale` (through XYZ, before
 * the resize) cost 120–150 ms each.
 */
export const FILTER_NAMES = TEMPLATE_FILTER_NAMES;
export type FilterName = (typeof FILTER_NAMES)[number];

type Vector3 = [number, number, number];
type Matrix3 = [Vector3, Vector3, Vector3];
interface ColourTransform {
  matrix: Matrix3;
  offset: Vector3;
}

const IDENTITY: ColourTransform = {
  matrix: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  offset: [0, 0, 0],
};

// Rec. 709 luma weights: grey keeps each colour's perceived brightness.
const LUMA: Vector3 = [0.2126, 0.7152, 0.0722];

// The classic sepia matrix (as CSS filter: sepia(1)).
const SEPIA: Matrix3 = [
  [0.393, 0.769, 0.189],
  [0.349, 0.686, 0.168],
  [0.272, 0.534, 0.131],
];

const dot = (a: Vector3, b: Vector3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const add = (a: Vector3, b: Vector3): Vector3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const lerp = (a: Vector3, b: Vector3, t: number): Vector3 => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];
const times = (m: Matrix3, v: Vector3): Vector3 => [dot(m[0], v), dot(m[1], v), dot(m[2], v)];
const transpose = (m: Matrix3): Matrix3 => [
  [m[0][0], m[1][0], m[2][0]],
  [m[0][1], m[1][1], m[2][1]],
  [m[0][2], m[1][2], m[2][2]],
];

/** `second` applied after `first`, as one transform: M = M2·M1, b = M2·b1 + b2. */
function then(first: ColourTransform, second: ColourTransform): ColourTransform {
  const columns = transpose(first.matrix).map((column) => times(second.matrix, column));
  return {
    matrix: transpose(columns as Matrix3),
    offset: add(times(second.matrix, first.offset), second.offset),
  };
}

const chain = (...steps: ColourTransform[]): ColourTransform => steps.reduce(then, IDENTITY);

/** From the identity (0) to `target` (1), or past it. */
function toward(target: Matrix3, amount: number): ColourTransform {
  const [i, m] = [IDENTITY.matrix, target];
  return {
    matrix: [lerp(i[0], m[0], amount), lerp(i[1], m[1], amount), lerp(i[2], m[2], amount)],
    offset: [0, 0, 0],
  };
}

const gains = (scale: Vector3, offset: Vector3): ColourTransform => ({
  matrix: [
    [scale[0], 0, 0],
    [0, scale[1], 0],
    [0, 0, scale[2]],
  ],
  offset,
});

const GREY: Matrix3 = [LUMA, LUMA, LUMA];
/** Saturation around luma: 0 is grey, 1 unchanged, above 1 more colourful. */
const saturation = (s: number): ColourTransform => toward(GREY, 1 - s);
/** Contrast around mid-grey, so 128 stays 128. */
const contrast = (a: number): ColourTransform => {
  const shift = 128 * (1 - a);
  return gains([a, a, a], [shift, shift, shift]);
};

const TRANSFORMS: Record<FilterName, ColourTransform> = {
  none: IDENTITY,
  grayscale: toward(GREY, 1),
  sepia: toward(SEPIA, 1),
  // More red, less blue (warm) and the reverse (cool).
  warm: chain(gains([1.08, 1.0, 0.86], [6, 0, -8]), saturation(1.05)),
  cool: gains([0.9, 1.0, 1.1], [-8, 0, 8]),
  // A brown cast, muted colour and lifted blacks, like a faded print.
  vintage: chain(toward(SEPIA, 0.45), saturation(0.75), contrast(0.85)),
  'high-contrast': chain(contrast(1.35), saturation(1.15)),
};

function normalise(name: string): string {
  return name.trim().toLowerCase();
}

/** Whether the booth knows `name`; an unknown name is printed without a filter. */
export function knownFilter(name: string): boolean {
  return (FILTER_NAMES as readonly string[]).includes(normalise(name));
}

function transformFor(name: string): ColourTransform {
  const key = normalise(name);
  return knownFilter(key) ? TRANSFORMS[key as FilterName] : IDENTITY;
}

/** Adds the named filter to `image`'s pipeline; sharp runs recomb then linear, after any resize. */
export function applyFilter(image: Sharp, name: string): Sharp {
  const transform = transformFor(name);
  if (transform === IDENTITY) return image;
  const { matrix, offset } = transform;
  const withMatrix = image.recomb(matrix);
  return offset.some((value) => value !== 0) ? withMatrix.linear([1, 1, 1], offset) : withMatrix;
}
