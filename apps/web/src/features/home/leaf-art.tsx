/**
 * Hero illustrations drawn in code (no image files): a cassava leaf with lesion spots under a scanning frame,
 * a grid of specimen tiles, and a PPD histogram. `variant` picks one per slide.
 */
function Leaf({ x, y, scale, rotate, spots }: { x: number; y: number; scale: number; rotate: number; spots: boolean }) {
  const lobes = [-72, -36, 0, 36, 72];
  return (
    <g transform={`translate(${x} ${y}) rotate(${rotate}) scale(${scale})`}>
      {lobes.map((a, i) => (
        <g key={a} transform={`rotate(${a})`}>
          <path d="M0 0 C -16 -30, -14 -80, 0 -105 C 14 -80, 16 -30, 0 0 Z" fill={i % 2 ? '#4f9d4a' : '#5fb157'} />
          <path d="M0 -4 L0 -98" stroke="#2f6f2d" strokeWidth="1.6" />
          {spots ? (
            <>
              <circle cx={i % 2 ? -5 : 4} cy={-50 - i * 4} r={5 + (i % 3)} fill="#8a5a2b" opacity="0.85" />
              <circle cx={i % 2 ? 4 : -4} cy={-72 + i * 2} r={3} fill="#a36b32" opacity="0.8" />
            </>
          ) : null}
        </g>
      ))}
      <path d="M0 0 L0 60" stroke="#6c8f3a" strokeWidth="4" strokeLinecap="round" />
    </g>
  );
}

export function LeafArt({ variant }: { variant: number }) {
  if (variant === 1) {
    const tiles = Array.from({ length: 9 }, (_, i) => i);
    return (
      <svg viewBox="0 0 320 260" width="100%" height="100%">
        {tiles.map((i) => {
          const x = 20 + (i % 3) * 98;
          const y = 10 + Math.floor(i / 3) * 82;
          return (
            <g key={i}>
              <rect x={x} y={y} width="88" height="72" rx="8" fill="rgba(255,255,255,0.9)" />
              <Leaf x={x + 44} y={y + 52} scale={0.32} rotate={((i * 17) % 40) - 20} spots={i % 3 === 1} />
              <rect
                x={x + 6}
                y={y + 60}
                width={30 + (i % 4) * 10}
                height="5"
                rx="2.5"
                fill={['#389e0d', '#d4a106', '#cf1322'][i % 3]}
              />
            </g>
          );
        })}
      </svg>
    );
  }
  if (variant === 2) {
    const bars = [62, 38, 22, 14, 8];
    const colours = ['#389e0d', '#d4a106', '#e06c1f', '#cf1322', '#8c1010'];
    return (
      <svg viewBox="0 0 320 260" width="100%" height="100%">
        <rect x="10" y="10" width="300" height="240" rx="14" fill="rgba(255,255,255,0.92)" />
        {bars.map((h, i) => (
          <rect key={i} x={40 + i * 52} y={215 - h * 2.6} width="34" height={h * 2.6} rx="4" fill={colours[i]} />
        ))}
        <path d="M30 215 H290" stroke="#9fb3a2" strokeWidth="2" />
        <path
          d="M40 80 C 100 60, 150 120, 200 130 S 270 170, 290 175"
          fill="none"
          stroke="#1f5130"
          strokeWidth="3"
          strokeDasharray="6 5"
        />
      </svg>
    );
  }
  return (
    <svg viewBox="0 0 320 260" width="100%" height="100%">
      <circle cx="160" cy="130" r="118" fill="rgba(255,255,255,0.12)" />
      <Leaf x={160} y={170} scale={1.1} rotate={0} spots />
      <g fill="none" stroke="#e8ffd9" strokeWidth="3" strokeLinecap="round">
        <path d="M60 40 H40 V60" />
        <path d="M260 40 H280 V60" />
        <path d="M60 230 H40 V210" />
        <path d="M260 230 H280 V210" />
      </g>
      <rect x="40" y="118" width="240" height="3" fill="#b8ff8a" opacity="0.8" />
    </svg>
  );
}
