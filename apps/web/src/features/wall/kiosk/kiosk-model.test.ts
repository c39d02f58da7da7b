import { describe, expect, it } from 'vitest';
import { boothUrl, indexAfterReload, likesText, qrBoothId, qrPathOf } from './kiosk-model';

describe('kiosk wall', () => {
  it('shows the newest item when a new one came on top, else keeps its place', () => {
    expect(indexAfterReload([3, 2, 1], [4, 3, 2, 1], 2)).toBe(0);
    expect(indexAfterReload([3, 2, 1], [3, 1], 1)).toBe(1);
    expect(indexAfterReload([3, 2, 1], [3, 1], 2)).toBe(0);
    expect(indexAfterReload([3, 2, 1], [], 2)).toBe(0);
    expect(indexAfterReload([], [5], undefined)).toBe(0);
  });

  it("leads the QR code to the item's booth, else the venue's first", () => {
    const booths = [{ id: 4, name: 'Atrium' }];
    const item = { device_id: 9 } as Parameters<typeof qrBoothId>[1];
    expect(qrBoothId({ booths }, item)).toBe(9);
    expect(qrBoothId({ booths }, { ...item!, device_id: null })).toBe(4);
    expect(qrBoothId({ booths: [] }, undefined)).toBeNull();
    expect(boothUrl(4, 'https://photos.example/', 'http://x')).toBe('https://photos.example/b/4');
    expect(boothUrl(4, undefined, 'http://10.0.0.2:8080')).toBe('http://10.0.0.2:8080/b/4');
  });

  it('says likes only when there are some', () => {
    expect([likesText(0), likesText(1), likesText(12)]).toEqual([null, '1 like', '12 likes']);
  });

  it('draws one rectangle per run of dark modules, inside the quiet zone', () => {
    const { path, viewBox } = qrPathOf(3, (row, column) => row === 1 && column < 2);
    expect(viewBox).toBe(11);
    expect(path).toBe('M4 5h2v1h-2z');
  });
});
