import sharp from 'sharp';

/**
 * Photos for task tests: cassava root slices (cream discs in a brown peel ring, with dark lesion
 * patches) on a plain dark background, which the engine scores; and a uniform grey picture, which it
 * cannot (no specimen). `seed` varies the lesion share (so PPD values differ) and the bytes.
 */
export interface SpecimenOptions {
  width?: number;
  height?: number;
  seed?: number;
  /** share of each slice covered by lesions, 0-0.9 (default varies with seed) */
  lesionShare?: number;
}

export async function makeSpecimenJpeg(options: SpecimenOptions = {}): Promise<Buffer> {
  const { width = 480, height = 320, seed = 1 } = options;
  const share = options.lesionShare ?? ((seed * 37) % 70) / 100;
  const r = Math.round(Math.min(width / 10, height / 3.2));
  const cy = Math.round(height / 2);
  const parts: string[] = [];
  for (let i = 0; i < 3; i++) {
    const cx = Math.round((width / 4) * (i + 1));
    parts.push(`<circle cx="${cx}" cy="${cy}" r="${r}" fill="#7a5230"/>`);
    parts.push(`<circle cx="${cx}" cy="${cy}" r="${Math.round(r * 0.9)}" fill="#efe4c4"/>`);
    // Lesions: a wedge of dark tissue whose angle sets the share, plus a small spot varying by seed.
    const inner = r * 0.9;
    const angle = share * 2 * Math.PI;
    if (share > 0.01) {
      const x1 = cx + inner * Math.cos(0);
      const y1 = cy + inner * Math.sin(0);
      const x2 = cx + inner * Math.cos(angle);
      const y2 = cy + inner * Math.sin(angle);
      const large = angle > Math.PI ? 1 : 0;
      parts.push(
        `<path d="M ${cx} ${cy} L ${x1.toFixed(1)} ${y1.toFixed(1)} A ${inner} ${inner} 0 ${large} 1 ${x2.toFixed(1)} ${y2.toFixed(1)} Z" fill="#3a2a22"/>`,
      );
    }
    parts.push(`<circle cx="${cx - r * 0.4}" cy="${cy - r * 0.3}" r="${Math.max(2, (seed % 5) + 2)}" fill="#4a3428"/>`);
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<rect width="100%" height="100%" fill="#1f2a36"/>${parts.join('')}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toBuffer();
}

/** A uniform grey picture: nothing to find, so the engine answers no_specimen_found. */
export async function makeGreyJpeg(width = 320, height = 240): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 128, g: 128, b: 128 } } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

export interface SpecimenFile {
  name: string;
  bytes: Buffer;
}

/** `count` specimen photos named `slice_<n>.jpg`, each with its own bytes and lesion share. */
export async function specimenFiles(
  count: number,
  options: SpecimenOptions & { prefix?: string } = {},
): Promise<SpecimenFile[]> {
  const out: SpecimenFile[] = [];
  for (let i = 1; i <= count; i++) {
    const seed = (options.seed ?? 0) + i;
    out.push({ name: `${options.prefix ?? 'slice'}_${i}.jpg`, bytes: await makeSpecimenJpeg({ ...options, seed }) });
  }
  return out;
}

/** Uploads files through the real API (POST /api/images/upload-files/) and returns the created images. */
export async function uploadFiles(
  baseUrl: string,
  files: SpecimenFile[],
  folderId?: number,
): Promise<{ id: number; name: string }[]> {
  const uploaded: { id: number; name: string }[] = [];
  for (let i = 0; i < files.length; i += 50) {
    const form = new FormData();
    for (const f of files.slice(i, i + 50))
      form.append('files', new Blob([new Uint8Array(f.bytes)], { type: 'image/jpeg' }), f.name);
    if (folderId !== undefined) form.append('folder_id', String(folderId));
    form.append('check_duplicate', '0');
    const res = await fetch(`${baseUrl}/api/images/upload-files/`, { method: 'POST', body: form });
    const body = (await res.json()) as { uploaded?: { id: number; name: string }[] };
    if (res.status !== 201 || !body.uploaded) throw new Error(`upload failed: ${res.status} ${JSON.stringify(body)}`);
    uploaded.push(...body.uploaded.map((u) => ({ id: u.id, name: u.name })));
  }
  return uploaded;
}

/** Polls a task until it leaves `running`; returns every progress value seen and the final task. */
export async function waitForTask(
  baseUrl: string,
  taskId: number,
  timeoutMs = 120_000,
): Promise<{ task: any; progress: number[] }> {
  const progress: number[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${baseUrl}/api/tasks/${taskId}/`);
    const task = (await res.json()) as any;
    if (res.status !== 200) throw new Error(`task ${taskId}: ${res.status} ${JSON.stringify(task)}`);
    progress.push(task.progress);
    if (task.status !== 'running') return { task, progress };
    if (Date.now() > deadline)
      throw new Error(`task ${taskId} still running after ${timeoutMs} ms: ${JSON.stringify(task)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
