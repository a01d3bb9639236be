/// A stash entry: one yarn the crafter owns or owned, with what is known of it.
///
/// Every text field but `name` may be unknown (`nil`); an empty string is not used for unknown.
public struct Yarn: Codable, Hashable, Sendable, Identifiable {
  /// A stable identifier, a lower-case UUID (RFC 9562) unless imported from elsewhere.
  public var id: String
  /// The product name, such as `Cascade 220`.
  public var name: String
  /// The maker, such as `Cascade Yarns`.
  public var brand: String?
  /// The colorway: the maker's name for the color, such as `Ruby`.
  public var colorway: String?
  /// A broad color family for sorting, such as `red`.
  public var colorFamily: String?
  /// The dye lot printed on the ball band.
  public var dyeLot: String?
  /// The CYC yarn weight category.
  public var weight: YarnWeight?
  /// The fiber content as written on the band, such as `100% Peruvian highland wool`.
  public var fiber: String?
  /// The length of one skein (`yd` or `m`).
  public var lengthPerSkein: Amount?
  /// The net weight of one skein (`g` or `oz`).
  public var netWeightPerSkein: Amount?
  /// How much the crafter bought, in any unit.
  public var quantity: Amount?
  /// What the crafter says is left, overriding the estimate.
  public var remainingOverride: Amount?
  /// Where it was bought.
  public var purchaseLocation: String?
  /// The day it was added to the stash.
  public var dateAdded: CalendarDate?
  /// Whether it is still in the stash (false once used up or given away).
  public var isStashed: Bool
  /// Photos, in the order they were attached.
  public var photos: [Attachment]

  public init(
    id: String, name: String, brand: String? = nil, colorway: String? = nil,
    colorFamily: String? = nil, dyeLot: String? = nil, weight: YarnWeight? = nil,
    fiber: String? = nil, lengthPerSkein: Amount? = nil, netWeightPerSkein: Amount? = nil,
    quantity: Amount? = nil, remainingOverride: Amount? = nil, purchaseLocation: String? = nil,
    dateAdded: CalendarDate? = nil, isStashed: Bool = true, photos: [Attachment] = []
  ) {
    self.id = id
    self.name = name
    self.brand = brand
    self.colorway = colorway
    self.colorFamily = colorFamily
    self.dyeLot = dyeLot
    self.weight = weight
    self.fiber = fiber
    self.lengthPerSkein = lengthPerSkein
    self.netWeightPerSkein = netWeightPerSkein
    self.quantity = quantity
    self.remainingOverride = remainingOverride
    self.purchaseLocation = purchaseLocation
    self.dateAdded = dateAdded
    self.isStashed = isStashed
    self.photos = photos
  }

  /// The put-up facts used by conversions.
  public var putUp: PutUp {
    PutUp(lengthPerSkein: lengthPerSkein, netWeightPerSkein: netWeightPerSkein)
  }
}

// MARK: Coding

// Written by hand for speed (a backup codes 100,000 yarns); the JSON is exactly that of the
// synthesized conformance: a `nil` optional is left out, keys are encoded in sorted order,
// and decoding reads the keys in declaration order, so errors are those it would throw.
// The schema is docs/FORMAT.md's; a new property must be added to both methods.
extension Yarn {
  enum CodingKeys: String, CodingKey {
    case id, name, brand, colorway, colorFamily, dyeLot, weight, fiber, lengthPerSkein
    case netWeightPerSkein, quantity, remainingOverride, purchaseLocation, dateAdded, isStashed
    case photos
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    name = try container.decode(String.self, forKey: .name)
    brand = try container.decodeIfPresent(String.self, forKey: .brand)
    colorway = try container.decodeIfPresent(String.self, forKey: .colorway)
    colorFamily = try container.decodeIfPresent(String.self, forKey: .colorFamily)
    dyeLot = try container.decodeIfPresent(String.self, forKey: .dyeLot)
    weight = try container.decodeWeightIfPresent(forKey: .weight)
    fiber = try container.decodeIfPresent(String.self, forKey: .fiber)
    lengthPerSkein = try container.decodeAmountIfPresent(forKey: .lengthPerSkein)
    netWeightPerSkein = try container.decodeAmountIfPresent(forKey: .netWeightPerSkein)
    quantity = try container.decodeAmountIfPresent(forKey: .quantity)
    remainingOverride = try container.decodeAmountIfPresent(forKey: .remainingOverride)
    purchaseLocation = try container.decodeIfPresent(String.self, forKey: .purchaseLocation)
    dateAdded = try container.decodeDayIfPresent(forKey: .dateAdded)
    isStashed = try container.decode(Bool.self, forKey: .isStashed)
    photos = try container.decode([Attachment].self, forKey: .photos)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(brand, forKey: .brand)
    try container.encodeIfPresent(colorFamily, forKey: .colorFamily)
    try container.encodeIfPresent(colorway, forKey: .colorway)
    try container.encodeIfPresent(dateAdded?.iso8601, forKey: .dateAdded)
    try container.encodeIfPresent(dyeLot, forKey: .dyeLot)
    try container.encodeIfPresent(fiber, forKey: .fiber)
    try container.encode(id, forKey: .id)
    try container.encode(isStashed, forKey: .isStashed)
    try container.encodeAmountIfPresent(lengthPerSkein, forKey: .lengthPerSkein)
    try container.encode(name, forKey: .name)
    try container.encodeAmountIfPresent(netWeightPerSkein, forKey: .netWeightPerSkein)
    try container.encode(photos, forKey: .photos)
    try container.encodeIfPresent(purchaseLocation, forKey: .purchaseLocation)
    try container.encodeAmountIfPresent(quantity, forKey: .quantity)
    try container.encodeAmountIfPresent(remainingOverride, forKey: .remainingOverride)
    try container.encodeIfPresent(weight?.rawValue, forKey: .weight)
  }
}

extension KeyedDecodingContainer {
  /// The CYC weight number under `key`; `nil` when the key is missing or null.
  ///
  /// - Throws: `DecodingError.dataCorrupted` with the words of the synthesized conformance
  ///   for a number outside 0–7.
  func decodeWeightIfPresent(forKey key: Key) throws -> YarnWeight? {
    guard let number = try decodeIfPresent(Int.self, forKey: key) else { return nil }
    guard let weight = YarnWeight(rawValue: number) else {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: self,
        debugDescription: "Cannot initialize YarnWeight from invalid Int value \(number)")
    }
    return weight
  }
}
