set terminal svg size 1200,1000 dynamic font "sans,11" background "white"
set termoption noenhanced
set output "chart.svg"
set multiplot layout 2,1 title "nativelock benchmarks, 2026-12-07 23:39 UTC, 2 cores AMD EPYC"
set style fill solid 0.85 border -1
set boxwidth 0.7
set logscale y
set grid ytics
set xtics rotate by -35 left font ",9" nomirror
set key off
set bmargin 12
set rmargin 12
set title "Uncontended acquire + release, µs/cycle (median, whiskers min..max of runs; log scale)"
set ylabel "µs/cycle"
plot "cycle.dat" using 1:4:($7==1?0x2a7ab0:($7==2?0x888888:0xe0a040)):xtic(3) with boxes lc rgb variable, \
     "" using 1:4:5:6 with yerrorbars lc rgb "black" pt -1
set title "Hand-off latency, ms: box = p50, whisker top = p99 (log scale)"
set ylabel "ms"
plot "handoff.dat" using 1:4:($7==1?0x2a7ab0:0xe0a040):xtic(3) with boxes lc rgb variable, \
     "" using 1:4:4:6 with yerrorbars lc rgb "black" pt -1, \
     1 with lines dt 2 lc rgb "red" title "1 ms"
unset multiplot