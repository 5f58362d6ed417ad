/** The CassavaScope mark: a stylised cassava leaf (palmate, five lobes) drawn in SVG, no image files. */
export function BrandMark({ size = 34 }: { size?: number }) {
  const lobes = [-60, -30, 0, 30, 60];
  return (
    <svg width={size} height={size} viewBox="0 0 40 40" aria-hidden="true" focusable="false">
      <circle cx="20" cy="20" r="19" fill="#1f5130" />
      <g transform="translate(20 27)">
        {lobes.map((a) => (
          <path
            key={a}
            d="M0 0 C -3 -6, -3 -13, 0 -17 C 3 -13, 3 -6, 0 0 Z"
            fill="#8fd16a"
            transform={`rotate(${a})`}
          />
        ))}
        <path d="M0 0 L0 8" stroke="#c9e8b3" strokeWidth="1.6" strokeLinecap="round" />
      </g>
    </svg>
  );
}
