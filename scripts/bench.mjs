// Benchmarks print figures; they arrive with the features they measure (transaction search, exports, reports).
const benches = [];
if (benches.length === 0) console.log('No benchmarks yet: they come with the transaction-data work.');
